-- AlterTable
ALTER TABLE "platform_user" ADD COLUMN     "sessionEpoch" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "api_key" ADD COLUMN     "createdByUserId" UUID;

