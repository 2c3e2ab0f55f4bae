-- Lists that hold as data grows (issue 28): the tenants list. An offset page walked the rows before
-- its offset and counted every tenant of the account for its total, so both grew with the account.
-- Each tenant of an account now has its position in the account's list (1, 2, 3, ... in creation
-- order, with no gap): an offset page seeks to `position > offset`, and the list's last position is
-- its total, one index entry each whatever the list's length.

-- AlterTable (first: its lock keeps the table still, no tenant is created until this commits)
ALTER TABLE "tenant" ADD COLUMN "position" INTEGER;

-- CreateTable
CREATE TABLE "tenant_list" (
    "accountId" UUID NOT NULL,
    "environment" "Environment" NOT NULL,

    CONSTRAINT "tenant_list_pkey" PRIMARY KEY ("accountId","environment")
);

-- AddForeignKey
ALTER TABLE "tenant_list" ADD CONSTRAINT "tenant_list_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: the tenants there are, numbered in the order the list showed them (createdDateTime,
-- then id), so every page reads as it did; and one list row per account and environment.
UPDATE "tenant" t SET "position" = numbered."position"
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "accountId", "environment" ORDER BY "createdDateTime", "id") AS "position"
  FROM "tenant" WHERE "accountId" IS NOT NULL
) numbered
WHERE t."id" = numbered."id";
INSERT INTO "tenant_list" ("accountId", "environment") SELECT DISTINCT "accountId", "environment" FROM "tenant" WHERE "accountId" IS NOT NULL;

-- A tenant of an account is in its list; one of no account (made before accounts existed) is in none.
ALTER TABLE "tenant" ADD CONSTRAINT "tenant_position_in_its_list" CHECK (("accountId" IS NULL) = ("position" IS NULL));

-- DropIndex: the list is read in position order now (the index below), nothing else reads this one.
DROP INDEX "tenant_accountId_environment_createdDateTime_id_idx";

-- CreateIndex: the list in order; unique, so two tenants can never share a place in a list.
CREATE UNIQUE INDEX "tenant_accountId_environment_position_key" ON "tenant"("accountId", "environment", "position");

-- Every new tenant of an account takes the next position of its list, whoever writes the row (the
-- API, the seeds, a bulk INSERT ... SELECT): a trigger, so no writer can leave one out or number it
-- wrong. A position written by the caller is replaced.
--
-- Why it is race-free: the list's row in tenant_list is locked (FOR UPDATE, held until the inserting
-- transaction ends) before the list's last position is read. A concurrent create in the same list
-- waits on that lock until the first transaction commits or rolls back; its next statement then
-- reads with a fresh snapshot (READ COMMITTED: each statement of a trigger function takes one), so it
-- sees the position just committed and takes the one after it. The first tenant of a list inserts
-- the list's row: a concurrent first insert waits on it (ON CONFLICT), then locks the same row. Two
-- creates thus never read the same last position. Under REPEATABLE READ or SERIALIZABLE (which the
-- service does not use) the second would read its older snapshot: the unique index above then
-- refuses its insert; two tenants never share a position. Lists of other accounts or environments
-- lock other rows and never wait for each other.
--
-- Why the order is creation order: positions are handed out in the order the creating transactions
-- take the list's lock, and each holds it until it commits, so a new tenant always joins the end of
-- the list: no tenant already listed moves, an offset page never shifts and a keyset cursor never
-- skips a tenant created meanwhile. (createdDateTime is the creating server's clock: two creates
-- that overlap in time may carry times a few milliseconds apart in either order.)
--
-- Why there is no gap: nothing but the new row holds its position, so an insert that fails or rolls
-- back (a duplicate referenceId) takes its position back with it, and the next create reuses it.
--
-- Why no counter: `count = count + 1` on one row, for every tenant of a bulk insert, leaves as many
-- versions of that row in the transaction, each update walking them (quadratic: 90,000 tenants in one
-- statement took about a minute). The lock is taken once per transaction (taking it again costs
-- nothing) and the last position is one step of the index above, so a bulk insert stays linear.
CREATE FUNCTION number_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."accountId" IS NULL THEN
    NEW."position" := NULL;
    RETURN NEW;
  END IF;
  INSERT INTO "tenant_list" ("accountId", "environment") VALUES (NEW."accountId", NEW."environment") ON CONFLICT DO NOTHING;
  PERFORM FROM "tenant_list" l WHERE l."accountId" = NEW."accountId" AND l."environment" = NEW."environment" FOR UPDATE;
  NEW."position" := 1 + COALESCE((SELECT max(t."position") FROM "tenant" t WHERE t."accountId" = NEW."accountId" AND t."environment" = NEW."environment"), 0);
  RETURN NEW;
END
$$;

CREATE TRIGGER tenant_number BEFORE INSERT ON "tenant" FOR EACH ROW EXECUTE FUNCTION number_tenant();

-- Positions stay 1..n only while a listed tenant neither leaves its list nor moves in it: its
-- account, environment and position never change, and it is deleted only with its account (which
-- takes its whole list, and the list's row, with it). The code does neither (no path deletes a
-- tenant or moves one); these triggers make the database refuse it too, rather than leave a gap
-- that offset pages would silently skip over. (A tenant of no account is in no list: it may be
-- deleted, but not moved into an account's list, where it would have no position.)
CREATE FUNCTION keep_tenant_position() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An account's deletion reaches its tenants after the account row is gone (ON DELETE CASCADE).
  IF TG_OP = 'DELETE' AND (OLD."accountId" IS NULL OR NOT EXISTS (SELECT FROM "account" a WHERE a."id" = OLD."accountId")) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'a tenant keeps its place in its account''s tenant list: its account, environment and position do not change, and it is deleted only with its account'
    USING ERRCODE = 'integrity_constraint_violation';
END
$$;

CREATE TRIGGER tenant_keeps_position BEFORE UPDATE OF "accountId", "environment", "position" ON "tenant"
  FOR EACH ROW
  WHEN (OLD."accountId" IS DISTINCT FROM NEW."accountId" OR OLD."environment" IS DISTINCT FROM NEW."environment" OR OLD."position" IS DISTINCT FROM NEW."position")
  EXECUTE FUNCTION keep_tenant_position();
CREATE TRIGGER tenant_deleted_with_its_account BEFORE DELETE ON "tenant" FOR EACH ROW EXECUTE FUNCTION keep_tenant_position();
