-- A lender's reference names its view of one application: the same lender may reuse it on another
-- application (the spec's samples do), so it is looked up, not enforced unique per lender.
DROP INDEX "lender_application_lenderId_reference_key";
CREATE INDEX "lender_application_lenderId_reference_idx" ON "lender_application"("lenderId", "reference");
