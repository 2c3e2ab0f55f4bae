/** The webhook deliveries view's documents (see ./queries.ts). */
export const DELIVERIES =
  /* GraphQL */ 'query Deliveries($status: String, $first: Int) { webhookDeliveries(status: $status, first: $first) { nodes { id lenderApplicationId lenderId event url status attempts lastStatusCode lastError nextAttemptAt deliveredAt createdAt attemptLog { statusCode error latencyMs attemptedAt } } } }';
export const REDELIVER = /* GraphQL */ 'mutation Redeliver($id: ID!) { redeliverWebhook(deliveryId: $id) { id status attempts nextAttemptAt } }';
export const DELIVERY_SUMMARY =
  /* GraphQL */ 'query DeliverySummary($hours: Int) { webhookDeliverySummary(hours: $hours) { lenderId lenderName delivered failing dead pending total successRate lastFailureAt } }';
