-- A funding search is recorded once per distinct matching input and outcome, and reused after.
ALTER TABLE "funding_search" ADD COLUMN "inputHash" TEXT;
CREATE UNIQUE INDEX "funding_search_profileId_inputHash_key" ON "funding_search"("profileId", "inputHash");
