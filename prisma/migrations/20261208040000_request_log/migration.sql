-- The integrator console's request log: one row per request an account's credential made, written
-- after the response in batches, purged by the worker after the retention.
-- CreateTable
CREATE TABLE "request_log_entry" (
    "id" BIGSERIAL NOT NULL,
    "accountId" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "requestId" TEXT NOT NULL,
    "method" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "latencyMs" DOUBLE PRECISION NOT NULL,
    "credentialKind" TEXT NOT NULL,
    "apiKeyId" UUID,
    "userId" UUID,
    "tenantId" UUID,
    "problem" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "request_log_entry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "request_log_entry_accountId_environment_createdAt_id_idx" ON "request_log_entry"("accountId", "environment", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "request_log_entry_accountId_requestId_idx" ON "request_log_entry"("accountId", "requestId");

-- CreateIndex
CREATE INDEX "request_log_entry_createdAt_idx" ON "request_log_entry"("createdAt");

-- AddForeignKey
ALTER TABLE "request_log_entry" ADD CONSTRAINT "request_log_entry_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
