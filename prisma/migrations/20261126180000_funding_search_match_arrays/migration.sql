-- A search's matches kept in its own row, as parallel arrays in rank order (issue 28): recording a
-- search of thousands of matches writes one row instead of one funding_match row per match, whose
-- three foreign-key checks each cost about 2/3 of the recording at 10,000 products. A match's
-- funding_match row is written from these when its lender is chosen (apply, submission).
-- Searches recorded before keep their rows and leave these NULL.
ALTER TABLE "funding_search"
  ADD COLUMN "matchLenderIds" INTEGER[],
  ADD COLUMN "matchProductIds" INTEGER[],
  ADD COLUMN "matchProductTypes" "ProductType"[],
  ADD COLUMN "matchLikelihoods" DECIMAL(4,3)[],
  ADD COLUMN "matchReasons" JSONB;
