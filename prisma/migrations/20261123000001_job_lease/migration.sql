-- CreateTable
CREATE TABLE "job_lease" (
    "jobId" UUID NOT NULL,
    "workerId" UUID NOT NULL,
    "takenAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "job_lease_pkey" PRIMARY KEY ("jobId")
);

-- CreateIndex
CREATE INDEX "job_lease_workerId_idx" ON "job_lease"("workerId");
