/**
 * Signed links (the continue page's, the funding-search page's) are credentials made with an API
 * key's token, and never outlive that key, as no token minted from it does: a link whose key has
 * been revoked or has expired is refused, and so is a link naming no key (nothing could end it).
 */
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import type { LinkClaims } from './token-authority.js';

/**
 * 403, as for a tampered link, unless the API key a verified link names still stands.
 * @access signed-link: the verified link is the credential; this checks the key that made it
 */
export async function assertLinkKeyStands(ctx: ServiceContext, claims: LinkClaims): Promise<void> {
  if (claims.key === undefined) throw new AppError('FORBIDDEN', 'This link is not valid: it names no credential (it was made before links could be revoked)');
  const key = await ctx.db.apiKey.findFirst({ where: { id: claims.key, environment: ctx.environment }, select: { revokedAt: true, expiresAt: true } });
  if (!key || key.revokedAt !== null) throw new AppError('FORBIDDEN', 'This link is not valid: the credential that made it has been revoked');
  if (key.expiresAt !== null && key.expiresAt <= ctx.clock.now())
    throw new AppError('FORBIDDEN', 'This link has expired: the credential that made it has expired');
}
