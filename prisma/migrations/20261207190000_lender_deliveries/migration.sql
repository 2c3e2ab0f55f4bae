-- A lender's own deliveries (the lender API's GET /deliveries), newest first, from an index of its
-- own: the staff's indexes lead with the environment, which holds every lender's.
-- CreateIndex
CREATE INDEX "webhook_delivery_lenderId_createdAt_id_idx" ON "webhook_delivery"("lenderId", "createdAt" DESC, "id" DESC);

-- A lender's replays (POST /deliveries/replay): what it asked for and how many deliveries it queued
-- again; its rows of the last hour are its rate limit.
-- CreateTable
CREATE TABLE "webhook_replay" (
    "id" UUID NOT NULL,
    "lenderId" INTEGER NOT NULL,
    "filter" JSONB NOT NULL,
    "queued" INTEGER NOT NULL,
    "requestId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_replay_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_replay_lenderId_createdAt_idx" ON "webhook_replay"("lenderId", "createdAt");

-- AddForeignKey
ALTER TABLE "webhook_replay" ADD CONSTRAINT "webhook_replay_lenderId_fkey" FOREIGN KEY ("lenderId") REFERENCES "lender"("id") ON DELETE CASCADE ON UPDATE CASCADE;
