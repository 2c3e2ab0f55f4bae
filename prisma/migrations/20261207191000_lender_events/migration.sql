-- A lender's events (the lender API's GET /events) are its deliveries in the order of the
-- transactions that wrote them: each row keeps its transaction's id, and a read lists only rows whose
-- transaction id is below the oldest one still running (pg_snapshot_xmin), so a row committed later
-- can never fall behind a cursor already handed out. Rows written before this migration all get its
-- transaction's id; they are ordered among themselves by application and sequence number.
-- AlterTable
ALTER TABLE "webhook_delivery" ADD COLUMN "transactionId" BIGINT NOT NULL DEFAULT ((pg_current_xact_id())::text)::bigint;

-- CreateIndex
CREATE INDEX "webhook_delivery_lender_events_idx" ON "webhook_delivery"("lenderId", "transactionId", "lenderApplicationId", "sequence");
