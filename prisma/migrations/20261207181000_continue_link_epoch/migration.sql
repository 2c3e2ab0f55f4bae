-- Continue links can be revoked: each carries the application's link generation, raised by a revocation.
-- AlterTable
ALTER TABLE "business_application" ADD COLUMN     "continueLinkEpoch" INTEGER NOT NULL DEFAULT 0;
