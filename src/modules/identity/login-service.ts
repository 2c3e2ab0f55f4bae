/**
 * Platform login (spec 4.2 step 1, 5.8): email and password → a login token for managing the
 * account (API keys, users). Unknown email, wrong password and disabled user are one answer,
 * in the same time; attempts are counted before the password is checked (login-throttle.ts). The
 * token carries the user's session epoch, so a later role or password change ends it.
 */
import type { z } from 'zod';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import type { LoginBody, TokenResponse } from './identity-schemas.js';
import { LOGIN_SCOPES_BY_ROLE, scopeString } from '../../kernel/scopes.js';
import { verifyPassword } from './secrets.js';
import { audit } from '../../kernel/audit-log.js';
import { TOKEN_TTL_SECONDS } from './token-service.js';

/** @access token-exchange: exchanges the e-mail address and password presented, which are the credential. */
export async function login(ctx: ServiceContext, { email, password }: z.output<typeof LoginBody>, clientAddress: string): Promise<TokenResponse> {
  try {
    await ctx.auth.loginThrottle.beginAttempt(email, clientAddress);
  } catch (err) {
    audit(ctx.logger, 'login.throttled', { ip: clientAddress });
    throw err;
  }
  const user = await ctx.db.platformUser.findFirst({
    where: { email: email.trim().toLowerCase(), environment: ctx.environment },
  });
  const passwordMatches = await verifyPassword(user?.passwordHash, password);
  if (!user || !passwordMatches || user.disabledAt) {
    audit(ctx.logger, 'login.failed', { userId: user?.id ?? null, ip: clientAddress });
    throw AppError.unauthenticated('Email or password is incorrect');
  }
  await ctx.auth.loginThrottle.recordSuccess(email, clientAddress);
  const scope = scopeString(LOGIN_SCOPES_BY_ROLE[user.role]);
  const accessToken = await ctx.auth.tokens.sign(
    { tkn: 'login', scope, acc: user.accountId, role: user.role, sep: user.sessionEpoch },
    { subject: user.id, ttlSeconds: TOKEN_TTL_SECONDS.login },
  );
  audit(ctx.logger, 'login.succeeded', { userId: user.id, accountId: user.accountId, ip: clientAddress });
  return { access_token: accessToken, expires_in: TOKEN_TTL_SECONDS.login, scope, token_type: 'Bearer' };
}
