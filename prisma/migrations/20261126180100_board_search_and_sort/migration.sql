-- The operators' board (issue 25): search (company name prefix, company registration number,
-- lender reference, application id), five orders in either direction paged by keyset, a total and
-- counts per status. Each order is served per scope (staff's environment, staff by status, a
-- member's profile) by an index on (scope, sort key, id): scanned forwards for ASC, backwards for
-- DESC. Company name and amount are ordered by expressions (a missing name sorts as '', a missing
-- amount as -1, so the keyset comparison never meets NULL); the company index's "C" collation also
-- serves the search's LIKE 'prefix%'. test/query-plans.test.ts plans every variant.

-- The company registration number as last sent, generated from the payload like sentCompanyName.
ALTER TABLE "lender_application"
  ADD COLUMN "sentCompanyNumber" TEXT GENERATED ALWAYS AS (
    CASE WHEN jsonb_typeof("payload" #> '{application,profile,basicCompanyDetails,companyNumber}') = 'string'
      THEN upper(btrim("payload" #>> '{application,profile,basicCompanyDetails,companyNumber}')) END
  ) STORED;

-- CreateIndex
CREATE INDEX "lender_application_environment_createdAt_id_idx" ON "lender_application"("environment", "createdAt", "id");
CREATE INDEX "lender_application_environment_status_createdAt_id_idx" ON "lender_application"("environment", "status", "createdAt", "id");
CREATE INDEX "lender_application_profileId_createdAt_id_idx" ON "lender_application"("profileId", "createdAt", "id");
CREATE INDEX "lender_application_environment_status_id_idx" ON "lender_application"("environment", "status", "id");
CREATE INDEX "lender_application_profileId_status_id_idx" ON "lender_application"("profileId", "status", "id");
CREATE INDEX "lender_application_environment_sentCompanyNumber_idx" ON "lender_application"("environment", "sentCompanyNumber");
CREATE INDEX "lender_application_environment_reference_idx" ON "lender_application"("environment", "reference");

-- Expression indexes (not declarable in schema.prisma): the board's company and amount orders.
CREATE INDEX "lender_application_board_company_idx" ON "lender_application"("environment", (lower(COALESCE("sentCompanyName", '')) COLLATE "C"), "id");
CREATE INDEX "lender_application_board_status_company_idx" ON "lender_application"("environment", "status", (lower(COALESCE("sentCompanyName", '')) COLLATE "C"), "id");
CREATE INDEX "lender_application_board_profile_company_idx" ON "lender_application"("profileId", (lower(COALESCE("sentCompanyName", '')) COLLATE "C"), "id");
CREATE INDEX "lender_application_board_amount_idx" ON "lender_application"("environment", (COALESCE("sentAmount", -1)), "id");
CREATE INDEX "lender_application_board_status_amount_idx" ON "lender_application"("environment", "status", (COALESCE("sentAmount", -1)), "id");
CREATE INDEX "lender_application_board_profile_amount_idx" ON "lender_application"("profileId", (COALESCE("sentAmount", -1)), "id");

-- The board's time in status is its row's latest move: read by an index range, as is the history.
DROP INDEX "application_status_change_lenderApplicationId_idx";
CREATE INDEX "application_status_change_lenderApplicationId_createdAt_idx" ON "application_status_change"("lenderApplicationId", "createdAt");
