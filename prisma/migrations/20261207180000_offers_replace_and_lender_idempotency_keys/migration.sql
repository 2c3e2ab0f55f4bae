-- Spec 4.5 note 2: an offer posted again replaces the previous one, whatever its reference, so a
-- reference is no longer unique per application (earlier offers stay in the history).
DROP INDEX "offer_lenderApplicationId_reference_key";

-- Idempotency-Key on the lender's acknowledgement, offer and rejection: the first answer kept per
-- lender and key (null while it is being answered), replayed for a repeat until it expires.
ALTER TABLE "idempotency_record" ADD COLUMN     "lenderId" INTEGER,
ALTER COLUMN "responseStatus" DROP NOT NULL,
ALTER COLUMN "responseBody" DROP NOT NULL;

CREATE UNIQUE INDEX "idempotency_record_lenderId_key_key" ON "idempotency_record"("lenderId", "key");

ALTER TABLE "idempotency_record" ADD CONSTRAINT "idempotency_record_lenderId_fkey" FOREIGN KEY ("lenderId") REFERENCES "lender"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A key without an account was unique across the table; a lender's key is unique per lender only.
DROP INDEX "idempotency_record_key_no_account_key";
CREATE UNIQUE INDEX "idempotency_record_key_no_account_key" ON "idempotency_record"("key") WHERE "accountId" IS NULL AND "lenderId" IS NULL;
