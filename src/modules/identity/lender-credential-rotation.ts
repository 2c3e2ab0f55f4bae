/**
 * A lender rotates its own lender API credentials (spec 5.9): a new OAuth client secret, or a new
 * password, each made here and shown once; only its digest or hash is kept. The old one stops
 * working for /oauth/token as soon as the rotation commits. The client id and username stay, so
 * tokens already issued keep working until they expire (their short life, TOKEN_TTL_SECONDS.lender);
 * re-issuing every credential at once, which ends those tokens too, is the operators' `lender-credentials`.
 */
import { z } from 'zod';
import { requireAccess } from '../../kernel/access-policy.js';
import { audit } from '../../kernel/audit-log.js';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { digest, hashPassword, newLenderClientCredentials, newPassword } from './secrets.js';

export const RotatedClientSecret = z
  .strictObject({
    clientId: z.string().describe('Your client id (unchanged)'),
    clientSecret: z.string().describe('Your new client secret: shown this once'),
  })
  .meta({ id: 'RotatedClientSecret', description: 'Your new OAuth client secret, shown once' });
export type RotatedClientSecret = z.infer<typeof RotatedClientSecret>;

export const RotatedPassword = z
  .strictObject({
    username: z.string().describe('Your username (unchanged)'),
    password: z.string().describe('Your new password: shown this once'),
  })
  .meta({ id: 'RotatedPassword', description: 'Your new lender API password, shown once' });
export type RotatedPassword = z.infer<typeof RotatedPassword>;

/** A new client secret for the calling lender; the old one no longer authenticates. */
export async function rotateClientSecret(ctx: ServiceContext): Promise<RotatedClientSecret> {
  const actor = requireAccess(ctx, 'lenderCredentials.rotate');
  const { clientSecret } = newLenderClientCredentials(ctx.environment);
  const lender = await updateOwnCredentials(ctx, actor, { clientSecretHash: digest(clientSecret) });
  audit(ctx.logger, 'lender_credentials.rotated', { lenderId: actor.lenderId, credential: 'client_secret' });
  return { clientId: lender.clientId!, clientSecret };
}

/** A new password for the calling lender; the old one no longer authenticates. */
export async function rotatePassword(ctx: ServiceContext): Promise<RotatedPassword> {
  const actor = requireAccess(ctx, 'lenderCredentials.rotate');
  const password = newPassword();
  const passwordHash = await hashPassword(password);
  const lender = await updateOwnCredentials(ctx, actor, { passwordHash });
  audit(ctx.logger, 'lender_credentials.rotated', { lenderId: actor.lenderId, credential: 'password' });
  return { username: lender.username!, password };
}

/**
 * Writes a credential of the caller's lender, as long as it is still the one whose client id the
 * caller's token names (credentials re-issued since: 404); answers its client id and username.
 */
async function updateOwnCredentials(
  ctx: ServiceContext,
  actor: { lenderId: number; clientId: string },
  data: { clientSecretHash: string } | { passwordHash: string },
) {
  const where = { id: actor.lenderId, environment: ctx.environment, clientId: actor.clientId };
  return ctx.db.$transaction(async (tx) => {
    const updated = await tx.lender.updateMany({ where, data });
    if (updated.count === 0) throw AppError.notFound('Lender');
    return tx.lender.findFirstOrThrow({ where, select: { clientId: true, username: true } });
  });
}
