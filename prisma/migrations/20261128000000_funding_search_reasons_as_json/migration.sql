-- A search's reasons as json, not jsonb: they are written whole with the search and read by position
-- only when a lender is chosen, and PostgreSQL stores a search's ~1 MB of reasons as json in about a
-- third of the time (jsonb parses every string into its binary form). Rewrites the table once.
-- AlterTable
ALTER TABLE "funding_search" ALTER COLUMN "matchReasons" SET DATA TYPE JSON;
