-- Each delivery carries its application's sequence number (the webhook-sequence header): 1 for the
-- application's first delivery, then one more for each, so a lender that receives deliveries out of
-- order, or one again, can tell which is the latest. A trigger numbers every insert, whoever writes
-- the row (a submission's deliveries, a status change's statement), so no writer can skip or reuse a
-- number: it locks the application's row first (already held by the status change or submission
-- that writes it), so writers of one application number one after another, and the unique index
-- refuses a number given twice rather than let two deliveries share it. A redelivery is the same row:
-- it keeps its number (and its webhook-id). The column default is never kept.
CREATE FUNCTION number_webhook_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "lender_application" a WHERE a."id" = NEW."lenderApplicationId" FOR UPDATE;
  NEW."sequence" := COALESCE((SELECT max(d."sequence") FROM "webhook_delivery" d WHERE d."lenderApplicationId" = NEW."lenderApplicationId"), 0) + 1;
  RETURN NEW;
END
$$;

-- AlterTable
ALTER TABLE "webhook_delivery" ADD COLUMN "sequence" INTEGER NOT NULL DEFAULT 0;

-- Backfill: the deliveries already made, numbered in the order they were made.
UPDATE "webhook_delivery" d SET "sequence" = numbered.n
  FROM (SELECT "id", row_number() OVER (PARTITION BY "lenderApplicationId" ORDER BY "createdAt", "id") AS n FROM "webhook_delivery") numbered
 WHERE numbered."id" = d."id";

-- CreateIndex
CREATE UNIQUE INDEX "webhook_delivery_lenderApplicationId_sequence_key" ON "webhook_delivery"("lenderApplicationId", "sequence");

CREATE TRIGGER webhook_delivery_sequence BEFORE INSERT ON "webhook_delivery"
  FOR EACH ROW EXECUTE FUNCTION number_webhook_delivery();

-- The worker sends an application's deliveries in this order (delivery-attempt-store.ts): a delivery
-- waits while one with a lower number is undelivered. The creation time it went by before can
-- disagree with it: a writer that waited for the application's row took its time before it waited.
-- The partial index of the undelivered rows that check probes is on the number from now on.
DROP INDEX "webhook_delivery_undelivered_order_idx";
CREATE INDEX "webhook_delivery_undelivered_order_idx" ON "webhook_delivery"("lenderApplicationId", "sequence") WHERE "status" IN ('PENDING', 'FAILED');
