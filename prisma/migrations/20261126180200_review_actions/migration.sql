-- The review queue's actions (issue 25): a funding specialist rejects (final, with a reason the client
-- reads) or returns (the client chooses again) a selection, takes it ("assign to me") and writes
-- notes; each action is a row of review_action, the selection's audit trail.
ALTER TYPE "ReviewState" ADD VALUE 'REJECTED';
ALTER TYPE "ReviewState" ADD VALUE 'RETURNED';

CREATE TYPE "ReviewActionKind" AS ENUM ('ASSIGNED', 'REJECTED', 'RETURNED', 'NOTE', 'SUBMITTED', 'REPLACED');

ALTER TABLE "review_selection" ADD COLUMN "assigneeId" UUID, ADD COLUMN "decisionReason" TEXT;
ALTER TABLE "review_selection" ADD CONSTRAINT "review_selection_assigneeId_fkey" FOREIGN KEY ("assigneeId") REFERENCES "platform_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "review_action" (
    "id" UUID NOT NULL,
    "selectionId" UUID NOT NULL,
    "kind" "ReviewActionKind" NOT NULL,
    "actorId" UUID,
    "text" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "review_action_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "review_action_selectionId_createdAt_idx" ON "review_action"("selectionId", "createdAt");
ALTER TABLE "review_action" ADD CONSTRAINT "review_action_selectionId_fkey" FOREIGN KEY ("selectionId") REFERENCES "review_selection"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "review_action" ADD CONSTRAINT "review_action_actorId_fkey" FOREIGN KEY ("actorId") REFERENCES "platform_user"("id") ON DELETE SET NULL ON UPDATE CASCADE;
