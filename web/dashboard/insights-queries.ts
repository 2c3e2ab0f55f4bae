/** The insights view's documents (see ./queries.ts): aggregates the server counts in SQL. */
export const APPLICATIONS_BY_STATUS =
  /* GraphQL */ 'query ApplicationsByStatus($window: InsightsWindow!) { applicationsByStatus(window: $window) { bucket since until periods { start counts { status applications } acknowledged } } }';
export const LENDER_RESPONSE_TIMES = /* GraphQL */ `query LenderResponseTimes($window: InsightsWindow!) { lenderResponseTimes(window: $window) {
  lenderId lenderName acknowledgement { answered medianSeconds p90Seconds } offer { answered medianSeconds p90Seconds } } }`;
export const REVIEW_QUEUE_STANDING =
  /* GraphQL */ 'query ReviewQueueStanding { reviewQueueStanding { waiting pendingReview inReview oldestCreatedAt oldestAgeSeconds ageBands { label selections } } }';
