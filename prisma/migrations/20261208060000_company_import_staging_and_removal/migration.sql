-- Whole-register imports mark the companies the register no longer lists (never deleted: profiles
-- and applications name them), count dissolutions, and remember the numbers listed so far so an
-- interrupted import still knows, once resumed, which companies it has seen.
ALTER TABLE "company" ADD COLUMN "registerRemovedAt" TIMESTAMP(3);

ALTER TABLE "company_import" ADD COLUMN "dissolved" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "removed" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "wholeRegister" BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE "company_import_seen" (
    "importId" UUID NOT NULL,
    "registrationNumber" TEXT NOT NULL,

    CONSTRAINT "company_import_seen_pkey" PRIMARY KEY ("importId","registrationNumber")
);

-- Search: prefix matches of companies still on the register come first, read in name order from
-- an index that stops after a page whatever the register's size (text_pattern_ops serves LIKE 'x%').
CREATE INDEX "company_active_name_prefix_idx" ON "company" ("countryCode", "nameLower" text_pattern_ops) WHERE "status" <> 'DISSOLVED';
CREATE INDEX "company_dissolved_name_prefix_idx" ON "company" ("countryCode", "nameLower" text_pattern_ops) WHERE "status" = 'DISSOLVED';
