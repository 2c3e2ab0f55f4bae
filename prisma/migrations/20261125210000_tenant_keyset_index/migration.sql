-- CreateIndex
CREATE INDEX "tenant_accountId_environment_createdDateTime_id_idx" ON "tenant"("accountId", "environment", "createdDateTime", "id");
