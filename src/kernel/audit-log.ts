/**
 * The audit log: one structured line per security-relevant event, through the process logger,
 * with an `audit` field naming the event (filter on it). Facts only: ids, kinds, reasons and
 * addresses; never a secret (the logger also redacts credential fields wherever they appear).
 */
import type { Logger } from 'pino';

export type AuditEvent =
  | 'login.succeeded'
  | 'login.failed'
  | 'login.throttled'
  | 'lender_token.issued'
  | 'lender_token.failed'
  | 'lender_token.throttled'
  | 'lender_console.signed_in'
  | 'lender_console.sign_in_failed'
  | 'refresh_token.replayed'
  | 'api_key.created'
  | 'api_key.revoked'
  | 'api_key.rotated'
  | 'access.denied'
  | 'rate_limit.exceeded'
  | 'staff.action'
  | 'deliveries.replayed'
  | 'endpoints.tested'
  | 'endpoints.changed'
  | 'webhook_secret.rotated'
  | 'lender_credentials.rotated'
  | 'webhook_endpoint.created'
  | 'webhook_endpoint.updated'
  | 'webhook_endpoint.deleted';

export function audit(logger: Logger, event: AuditEvent, facts: Record<string, unknown> = {}): void {
  logger.info({ audit: event, ...facts }, `audit: ${event}`);
}
