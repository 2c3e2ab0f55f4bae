-- The outbox is the delivery queue: the worker claims due deliveries straight from webhook_delivery
-- (no queue job per delivery), so the request id a job carried is kept on the row. The claim reads
-- the due deliveries in nextAttemptAt order, and checks each for an earlier undelivered delivery of
-- its application, from indexes holding only the undelivered rows: delivered ones accumulate (ten
-- per application, 200,000 in all: 48 ms per claim of 50 from a backlog of 2,000 with the full
-- indexes, 10 ms with these). Prisma cannot declare a partial index.
ALTER TABLE "webhook_delivery" ADD COLUMN "requestId" TEXT;
CREATE INDEX "webhook_delivery_due_idx" ON "webhook_delivery"("nextAttemptAt") WHERE "status" IN ('PENDING', 'FAILED');
CREATE INDEX "webhook_delivery_undelivered_order_idx" ON "webhook_delivery"("lenderApplicationId", "createdAt") WHERE "status" IN ('PENDING', 'FAILED');
