-- The board's total and counts per status as counters, so that reading them never counts rows:
-- per lender (what staff read, summed over lenders) and per profile and lender (what a platform user
-- who is not staff reads, summed over the profiles their account owns). Both are kept by statement
-- triggers on lender_application, in the statement that inserts, moves or deletes applications
-- (whoever writes: submission, a status change, a cascade from a deleted profile or lender, a seed),
-- so a counter can never disagree with a COUNT of the rows at the same snapshot.

-- CreateTable
CREATE TABLE "application_count_by_lender" (
    "environment" "Environment" NOT NULL,
    "lenderId" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "application_count_by_lender_pkey" PRIMARY KEY ("environment","lenderId","status")
);

-- CreateTable
CREATE TABLE "application_count_by_profile" (
    "profileId" UUID NOT NULL,
    "environment" "Environment" NOT NULL,
    "lenderId" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "application_count_by_profile_pkey" PRIMARY KEY ("profileId","environment","lenderId","status")
);

-- One delta per counter a statement changed (rows that kept their key cancel out). The per-lender
-- counters are written first, then the per-profile ones, each in key order: every writer takes the
-- counters' row locks in the same order, so two changes never wait on each other in a cycle.
CREATE FUNCTION count_lender_applications() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "application_count_by_lender" AS c ("environment", "lenderId", "status", "count")
      SELECT "environment", "lenderId", "status", count(*) FROM new_rows GROUP BY 1, 2, 3 ORDER BY 2, 1, 3
      ON CONFLICT ("environment", "lenderId", "status") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
    INSERT INTO "application_count_by_profile" AS c ("profileId", "environment", "lenderId", "status", "count")
      SELECT "profileId", "environment", "lenderId", "status", count(*) FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 3, 1, 2, 4
      ON CONFLICT ("profileId", "environment", "lenderId", "status") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "application_count_by_lender" c SET "count" = c."count" - d.n
      FROM (SELECT "environment", "lenderId", "status", count(*) AS n FROM old_rows GROUP BY 1, 2, 3) d
      WHERE c."environment" = d."environment" AND c."lenderId" = d."lenderId" AND c."status" = d."status";
    UPDATE "application_count_by_profile" c SET "count" = c."count" - d.n
      FROM (SELECT "profileId", "environment", "lenderId", "status", count(*) AS n FROM old_rows GROUP BY 1, 2, 3, 4) d
      WHERE c."profileId" = d."profileId" AND c."environment" = d."environment" AND c."lenderId" = d."lenderId" AND c."status" = d."status";
  ELSE
    INSERT INTO "application_count_by_lender" AS c ("environment", "lenderId", "status", "count")
      SELECT "environment", "lenderId", "status", sum(n) FROM (
        SELECT "environment", "lenderId", "status", 1 AS n FROM new_rows
        UNION ALL SELECT "environment", "lenderId", "status", -1 FROM old_rows
      ) moved GROUP BY 1, 2, 3 HAVING sum(n) <> 0 ORDER BY 2, 1, 3
      ON CONFLICT ("environment", "lenderId", "status") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
    INSERT INTO "application_count_by_profile" AS c ("profileId", "environment", "lenderId", "status", "count")
      SELECT "profileId", "environment", "lenderId", "status", sum(n) FROM (
        SELECT "profileId", "environment", "lenderId", "status", 1 AS n FROM new_rows
        UNION ALL SELECT "profileId", "environment", "lenderId", "status", -1 FROM old_rows
      ) moved GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0 ORDER BY 3, 1, 2, 4
      ON CONFLICT ("profileId", "environment", "lenderId", "status") DO UPDATE SET "count" = c."count" + EXCLUDED."count";
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION clear_lender_application_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "application_count_by_lender";
  DELETE FROM "application_count_by_profile";
  RETURN NULL;
END
$$;

-- Backfill: no application is written between the count and the triggers' creation (the migration's
-- transaction holds the table against writes until it commits).
LOCK TABLE "lender_application" IN SHARE ROW EXCLUSIVE MODE;

INSERT INTO "application_count_by_lender" ("environment", "lenderId", "status", "count")
  SELECT "environment", "lenderId", "status", count(*) FROM "lender_application" GROUP BY 1, 2, 3;
INSERT INTO "application_count_by_profile" ("profileId", "environment", "lenderId", "status", "count")
  SELECT "profileId", "environment", "lenderId", "status", count(*) FROM "lender_application" GROUP BY 1, 2, 3, 4;

CREATE TRIGGER lender_application_counts_insert AFTER INSERT ON "lender_application"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_lender_applications();
CREATE TRIGGER lender_application_counts_update AFTER UPDATE ON "lender_application"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_lender_applications();
CREATE TRIGGER lender_application_counts_delete AFTER DELETE ON "lender_application"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_lender_applications();
CREATE TRIGGER lender_application_counts_truncate AFTER TRUNCATE ON "lender_application"
  FOR EACH STATEMENT EXECUTE FUNCTION clear_lender_application_counts();
