-- CreateIndex
CREATE INDEX "webhook_delivery_lenderApplicationId_createdAt_idx" ON "webhook_delivery"("lenderApplicationId", "createdAt");

