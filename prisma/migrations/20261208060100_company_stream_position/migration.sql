-- The company-stream process resumes a Companies House stream from the last event it applied.
CREATE TABLE "company_stream_position" (
    "stream" TEXT NOT NULL,
    "timepoint" BIGINT NOT NULL,
    "publishedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "company_stream_position_pkey" PRIMARY KEY ("stream")
);
