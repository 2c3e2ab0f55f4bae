-- Issue 23: a lender's single authorization token was stored in every application document and
-- returned to integrators. Each application now gets its own token, derived from a lender key that is
-- never sent; documents are stored without any token. Webhook signing secrets get an overlap window.

-- AlterTable
ALTER TABLE "lender" ADD COLUMN     "authorizationTokenKey" TEXT,
ADD COLUMN     "previousWebhookSecret" TEXT,
ADD COLUMN     "previousWebhookSecretExpiresAt" TIMESTAMP(3);

-- A fresh key for every lender that had a token (never the exposed token itself): 244 random bits
-- from gen_random_uuid (the server's strong random source). Lenders learn it by re-issuing credentials.
UPDATE "lender"
   SET "authorizationTokenKey" = 'fgak_' || replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')
 WHERE "authorizationToken" IS NOT NULL;

ALTER TABLE "lender" DROP COLUMN "authorizationToken";

-- The token stored in documents and in queued deliveries is removed: deliveries add the current one as they are sent.
UPDATE "lender_application" SET "payload" = "payload" #- '{apiProvider,authorizationToken}' WHERE "payload" -> 'apiProvider' ? 'authorizationToken';
UPDATE "webhook_delivery" SET "payload" = "payload" #- '{apiProvider,authorizationToken}' WHERE "payload" -> 'apiProvider' ? 'authorizationToken';
