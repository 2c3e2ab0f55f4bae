-- Lists that hold as data grows (issue 28): the board, the Lender Application API, webhook
-- deliveries and the review queue read pages by keyset, each filter+order served by an index, and
-- the board reads columns rather than every application's whole payload.

-- The environment a row belongs to is its lender's (its profile's for a review selection). A list
-- filters on it; through a join the planner would read every row of the environment's lenders and
-- sort them. A trigger copies it on every insert (and on a change of lender), whoever writes the row,
-- so the column cannot disagree with the lender: the column default is never kept. The lender or
-- profile row is looked up by key; a missing one is left to the foreign key to refuse.
CREATE FUNCTION copy_lender_environment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."environment" := COALESCE((SELECT l."environment" FROM "lender" l WHERE l."id" = NEW."lenderId"), NEW."environment");
  RETURN NEW;
END
$$;

CREATE FUNCTION copy_profile_environment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."environment" := COALESCE((SELECT p."environment" FROM "profile" p WHERE p."id" = NEW."profileId"), NEW."environment");
  RETURN NEW;
END
$$;

-- AlterTable
ALTER TABLE "lender_application" ADD COLUMN "environment" "Environment" NOT NULL DEFAULT 'demo';
ALTER TABLE "webhook_delivery" ADD COLUMN "environment" "Environment" NOT NULL DEFAULT 'demo';
ALTER TABLE "review_selection" ADD COLUMN "environment" "Environment" NOT NULL DEFAULT 'demo';

-- Backfill
UPDATE "lender_application" a SET "environment" = l."environment" FROM "lender" l WHERE l."id" = a."lenderId";
UPDATE "webhook_delivery" d SET "environment" = l."environment" FROM "lender" l WHERE l."id" = d."lenderId";
UPDATE "review_selection" s SET "environment" = p."environment" FROM "profile" p WHERE p."id" = s."profileId";

CREATE TRIGGER lender_application_environment BEFORE INSERT OR UPDATE OF "lenderId" ON "lender_application"
  FOR EACH ROW EXECUTE FUNCTION copy_lender_environment();
CREATE TRIGGER webhook_delivery_environment BEFORE INSERT OR UPDATE OF "lenderId" ON "webhook_delivery"
  FOR EACH ROW EXECUTE FUNCTION copy_lender_environment();
CREATE TRIGGER review_selection_environment BEFORE INSERT OR UPDATE OF "profileId" ON "review_selection"
  FOR EACH ROW EXECUTE FUNCTION copy_profile_environment();

-- The board's company name and amount, as the document last sent says them. Generated from the
-- payload (computed for existing rows by this statement, and on every write of the payload, by
-- submission and resubmission alike), so they can never disagree with what the lender was sent.
-- Only a JSON string is a name; a JSON number, or a string that is a plain decimal, is an amount
-- (the length bound keeps an absurd number from failing the write with "out of range": it is null).
ALTER TABLE "lender_application"
  ADD COLUMN "sentCompanyName" TEXT GENERATED ALWAYS AS (
    CASE WHEN jsonb_typeof("payload" #> '{application,profile,basicCompanyDetails,companyName}') = 'string'
      THEN "payload" #>> '{application,profile,basicCompanyDetails,companyName}' END
  ) STORED,
  ADD COLUMN "sentAmount" DOUBLE PRECISION GENERATED ALWAYS AS (
    CASE WHEN jsonb_typeof("payload" #> '{application,fundingSearch,amount}') IN ('number', 'string')
      AND ("payload" #>> '{application,fundingSearch,amount}') ~ '^\s*-?[0-9]{1,15}(\.[0-9]{1,15})?\s*$'
      THEN ("payload" #>> '{application,fundingSearch,amount}')::double precision END
  ) STORED;

-- DropIndex: replaced by the one below, which also orders ties by id (the API's page order).
DROP INDEX "lender_application_lenderId_createdAt_idx";

-- CreateIndex
CREATE INDEX "lender_application_lenderId_createdAt_id_idx" ON "lender_application"("lenderId", "createdAt", "id");
CREATE INDEX "lender_application_environment_updatedAt_id_idx" ON "lender_application"("environment", "updatedAt" DESC, "id" DESC);
CREATE INDEX "lender_application_environment_status_updatedAt_id_idx" ON "lender_application"("environment", "status", "updatedAt" DESC, "id" DESC);
CREATE INDEX "lender_application_lenderId_updatedAt_id_idx" ON "lender_application"("lenderId", "updatedAt" DESC, "id" DESC);
CREATE INDEX "lender_application_profileId_updatedAt_id_idx" ON "lender_application"("profileId", "updatedAt" DESC, "id" DESC);
CREATE INDEX "webhook_delivery_environment_createdAt_id_idx" ON "webhook_delivery"("environment", "createdAt" DESC, "id" DESC);
CREATE INDEX "webhook_delivery_environment_status_createdAt_id_idx" ON "webhook_delivery"("environment", "status", "createdAt" DESC, "id" DESC);
CREATE INDEX "review_selection_environment_createdAt_id_idx" ON "review_selection"("environment", "createdAt" DESC, "id" DESC);
CREATE INDEX "review_selection_environment_state_createdAt_id_idx" ON "review_selection"("environment", "state", "createdAt" DESC, "id" DESC);
