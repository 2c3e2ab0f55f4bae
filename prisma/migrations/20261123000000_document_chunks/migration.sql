-- CreateTable
CREATE TABLE "document_chunk" (
    "documentId" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "document_chunk_pkey" PRIMARY KEY ("documentId","seq")
);

-- AddForeignKey
ALTER TABLE "document_chunk" ADD CONSTRAINT "document_chunk_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "document"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Existing documents keep their content, as one chunk each.
INSERT INTO "document_chunk" ("documentId", "seq", "data") SELECT "id", 0, "content" FROM "document" WHERE length("content") > 0;

-- AlterTable
ALTER TABLE "document" DROP COLUMN "content";
