-- A lender's endpoints can be disabled (their deliveries wait), and it sets its own service level.
ALTER TABLE "lender" ADD COLUMN "applicationUrlEnabled" BOOLEAN NOT NULL DEFAULT true,
                     ADD COLUMN "updateUrlEnabled" BOOLEAN NOT NULL DEFAULT true,
                     ADD COLUMN "answerWithinHours" INTEGER;

-- What the receiver answered to each attempt.
ALTER TABLE "webhook_delivery_attempt" ADD COLUMN "responseHeaders" JSONB,
                                       ADD COLUMN "responseBody" TEXT,
                                       ADD COLUMN "responseBodyTruncated" BOOLEAN;
