-- A delivery's attempt claim: two jobs of one delivery (a dead worker's reclaimed job beside a retry
-- or a deferral) never send it at the same time.
ALTER TABLE "webhook_delivery" ADD COLUMN "attemptStartedAt" TIMESTAMP(3);
