-- The outbox is the delivery queue: the worker claims due deliveries straight from webhook_delivery
-- (no queue job per delivery), so the request id a job carried is kept on the row, and the claim
-- reads the due deliveries in nextAttemptAt order from an index holding only the undelivered ones
-- (delivered rows, which accumulate, are not in it). Prisma cannot declare a partial index.
ALTER TABLE "webhook_delivery" ADD COLUMN "requestId" TEXT;
CREATE INDEX "webhook_delivery_due_idx" ON "webhook_delivery"("nextAttemptAt") WHERE "status" IN ('PENDING', 'FAILED');
