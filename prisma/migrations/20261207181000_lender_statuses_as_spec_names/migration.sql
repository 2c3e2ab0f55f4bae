-- Lender-visible statuses as spec 3 names them: an application sent to a lender is "In Review"
-- (was "Submitted"), and an acknowledgement leaves the status as it is, recording its time
-- (there is no "Acknowledged" status any more). Existing rows move with it.
ALTER TABLE "lender_application" ADD COLUMN     "acknowledgedAt" TIMESTAMP(3);

-- The first acknowledgement's time, from the history.
UPDATE "lender_application" la
   SET "acknowledgedAt" = ack.at
  FROM (SELECT "lenderApplicationId", min("createdAt") AS at
          FROM "application_status_change"
         WHERE "toStatus" = 'Acknowledged'
         GROUP BY "lenderApplicationId") ack
 WHERE ack."lenderApplicationId" = la.id;

UPDATE "lender_application" SET status = 'In Review' WHERE status IN ('Submitted', 'Acknowledged');

-- The history keeps every acknowledgement, as a change that stays In Review.
UPDATE "application_status_change" SET "toStatus" = 'In Review' WHERE "toStatus" IN ('Submitted', 'Acknowledged');
UPDATE "application_status_change" SET "fromStatus" = 'In Review' WHERE "fromStatus" IN ('Submitted', 'Acknowledged');

-- Deliveries not yet made send the status the lender now reads.
UPDATE "webhook_delivery"
   SET payload = jsonb_set(payload, '{application,status}', '"In Review"')
 WHERE status IN ('PENDING', 'FAILED')
   AND payload -> 'application' ->> 'status' IN ('Submitted', 'Acknowledged');
