-- Integrators' webhooks on the lenders' delivery engine (one outbox, two audiences): an account's
-- endpoints, its events (the log of GET /api/platform/v1/events) and, on webhook_delivery, the
-- recipient: null for the application's lender, else an account's endpoint.

-- The integrator event types (Standard Webhooks names in webhook-headers.ts).
ALTER TYPE "WebhookEvent" ADD VALUE 'APPLICATION_STATUS_CHANGED';
ALTER TYPE "WebhookEvent" ADD VALUE 'OFFER_CREATED';
ALTER TYPE "WebhookEvent" ADD VALUE 'OFFER_ACCEPTED';
ALTER TYPE "WebhookEvent" ADD VALUE 'OFFER_DECLINED';

-- CreateTable
CREATE TABLE "integrator_webhook_endpoint" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "eventTypes" TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "secret" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "integrator_webhook_endpoint_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "integrator_webhook_endpoint_accountId_createdAt_idx" ON "integrator_webhook_endpoint"("accountId", "createdAt");
ALTER TABLE "integrator_webhook_endpoint" ADD CONSTRAINT "integrator_webhook_endpoint_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateTable
CREATE TABLE "integrator_event" (
    "id" UUID NOT NULL,
    "accountId" UUID NOT NULL,
    "type" "WebhookEvent" NOT NULL,
    "lenderApplicationId" INTEGER NOT NULL,
    "payload" JSONB NOT NULL,
    "transactionId" BIGINT NOT NULL DEFAULT ((pg_current_xact_id())::text)::bigint,
    "position" BIGSERIAL NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "integrator_event_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "integrator_event_accountId_transactionId_position_idx" ON "integrator_event"("accountId", "transactionId", "position");
CREATE INDEX "integrator_event_createdAt_idx" ON "integrator_event"("createdAt");
ALTER TABLE "integrator_event" ADD CONSTRAINT "integrator_event_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "account"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "integrator_event" ADD CONSTRAINT "integrator_event_lenderApplicationId_fkey" FOREIGN KEY ("lenderApplicationId") REFERENCES "lender_application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The recipient of a delivery.
ALTER TABLE "webhook_delivery" ADD COLUMN "integratorEndpointId" UUID, ADD COLUMN "accountId" UUID;
ALTER TABLE "webhook_delivery" ADD CONSTRAINT "webhook_delivery_integratorEndpointId_fkey" FOREIGN KEY ("integratorEndpointId") REFERENCES "integrator_webhook_endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;
CREATE INDEX "webhook_delivery_accountId_createdAt_id_idx" ON "webhook_delivery"("accountId", "createdAt" DESC, "id" DESC);

-- An application's deliveries are numbered per recipient: the lender's webhook-sequence counts its
-- own deliveries only (1, 2, 3 whatever integrators receive), and each endpoint's its own.
DROP INDEX "webhook_delivery_lenderApplicationId_sequence_key";
CREATE UNIQUE INDEX "webhook_delivery_lenderApplicationId_integratorEndpointId_sequence_key" ON "webhook_delivery"("lenderApplicationId", "integratorEndpointId", "sequence") NULLS NOT DISTINCT;

CREATE OR REPLACE FUNCTION number_webhook_delivery() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "lender_application" a WHERE a."id" = NEW."lenderApplicationId" FOR UPDATE;
  NEW."sequence" := COALESCE((SELECT max(d."sequence") FROM "webhook_delivery" d
                               WHERE d."lenderApplicationId" = NEW."lenderApplicationId"
                                 AND d."integratorEndpointId" IS NOT DISTINCT FROM NEW."integratorEndpointId"), 0) + 1;
  RETURN NEW;
END
$$;

-- Replays by an integrator account beside a lender's.
ALTER TABLE "webhook_replay" ALTER COLUMN "lenderId" DROP NOT NULL, ADD COLUMN "accountId" UUID;
CREATE INDEX "webhook_replay_accountId_createdAt_idx" ON "webhook_replay"("accountId", "createdAt");
