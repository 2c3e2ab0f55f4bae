-- The product catalogue's revision (issue 27: no stale window across processes). Every process keeps
-- the catalogue in memory; a change published on the event bus tells the others to reload, but a
-- message can arrive after the caller's next request reaches another process (or be lost while a
-- subscription is down), and writes made outside the services (the admin CLI, SQL) publish nothing.
-- So the database numbers the catalogue's states: every statement that changes a lender's matched
-- fields or any product bumps the revision, in the changing transaction, and a search reads the
-- revision with its profile (the same statement) and never matches over a snapshot loaded before it.

CREATE TABLE "lender_catalogue_revision" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "revision" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "lender_catalogue_revision_pkey" PRIMARY KEY ("id"),
    -- One row: the revision of the whole catalogue (every environment's; a change in one makes the
    -- others reload once too, which the rarity of catalogue changes makes harmless).
    CONSTRAINT "lender_catalogue_revision_one_row" CHECK ("id")
);
INSERT INTO "lender_catalogue_revision" ("id", "revision") VALUES (true, 1);

-- Per statement, not per row: a bulk INSERT ... SELECT of 10,000 products bumps it once (one row
-- updated 10,000 times in one transaction would cost quadratic time), and TRUNCATE is covered too.
CREATE FUNCTION "lender_catalogue_revision_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "lender_catalogue_revision" SET "revision" = "revision" + 1 WHERE "id";
  RETURN NULL;
END;
$$;

CREATE TRIGGER "lender_product_changes_catalogue"
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "lender_product"
  FOR EACH STATEMENT EXECUTE FUNCTION "lender_catalogue_revision_bump"();

-- A lender's columns that the catalogue reads (product-catalogue.ts `load`): its secrets, webhook
-- addresses, credentials and required fields change without a new revision, so a lender's key
-- rotation or OAuth set-up does not make every process reload the catalogue.
CREATE TRIGGER "lender_changes_catalogue"
  AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "environment", "name", "logo", "description", "priceBand", "responseTimeHours", "requiredDocuments", "active" ON "lender"
  FOR EACH STATEMENT EXECUTE FUNCTION "lender_catalogue_revision_bump"();
