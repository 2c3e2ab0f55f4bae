-- Real register data: a company may have no credit data (no score), its credit data names its
-- source and date, and the register's own facts (type and status codes, SIC codes, previous names)
-- are kept beside ours. The demo seed's companies are labelled as demo credit data.
ALTER TABLE "company" ALTER COLUMN "scoreValue" DROP NOT NULL,
ADD COLUMN "creditSource" TEXT,
ADD COLUMN "creditAsOf" TIMESTAMP(3),
ADD COLUMN "registerSource" TEXT NOT NULL DEFAULT 'demo',
ADD COLUMN "registerType" TEXT,
ADD COLUMN "registerStatus" TEXT,
ADD COLUMN "sicCodes" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN "previousNames" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN "previousNamesLower" TEXT NOT NULL DEFAULT '',
ADD COLUMN "registerDigest" TEXT;

UPDATE "company" SET "creditSource" = 'demo', "creditAsOf" = "scoreLastAssessedAt" WHERE "scoreValue" IS NOT NULL;

-- Previous names are searched inside like current names (a trigram index; most are empty).
CREATE INDEX "company_previous_names_lower_trgm_idx" ON "company" USING gin ("previousNamesLower" gin_trgm_ops);

CREATE TABLE "company_import" (
    "id" UUID NOT NULL,
    "fileKey" TEXT NOT NULL,
    "fileName" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'running',
    "recordsDone" INTEGER NOT NULL DEFAULT 0,
    "inserted" INTEGER NOT NULL DEFAULT 0,
    "changed" INTEGER NOT NULL DEFAULT 0,
    "unchanged" INTEGER NOT NULL DEFAULT 0,
    "rejected" INTEGER NOT NULL DEFAULT 0,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "company_import_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "company_import_fileKey_state_idx" ON "company_import"("fileKey", "state");
