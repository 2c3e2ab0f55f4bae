/**
 * The lender console's sign-in: a lender's user gives the username and password of its credentials
 * (spec 5.9) and gets an id_token like the one /oauth/token issues (the lender API and GraphQL
 * bearer, scoped to that lender), lasting a console session rather than 120 s, since a person at a
 * browser cannot sign in before each request. The client secret stays with the lender's servers:
 * the console never asks for it. Counted by the same throttle as /oauth/token, before the password
 * is hashed; an unknown username and a wrong password are one answer. Nothing is stored in a
 * cookie, so a request from another site has no session to ride on (the page keeps the token in
 * sessionStorage and sends it as a bearer).
 */
import { z } from 'zod';
import type { ServiceContext } from '../../kernel/context.js';
import { AppError } from '../../kernel/errors.js';
import { audit } from '../../kernel/audit-log.js';
import { scopeString } from '../../kernel/scopes.js';
import { verifyPassword } from './secrets.js';

/** How long a console session lasts: then the console asks for the password again. */
export const LENDER_CONSOLE_SESSION_SECONDS = 30 * 60;
const CONSOLE_SCOPES = ['openid', 'profile'] as const;

export const LenderConsoleSignIn = z
  .strictObject({
    username: z.string().trim().min(1, 'must not be empty').max(255),
    password: z.string().min(1, 'must not be empty').max(1024),
  })
  .meta({ id: 'LenderConsoleSignIn', description: "The username and password of a lender's credentials" });

export const LenderConsoleSession = z
  .strictObject({
    id_token: z.string().describe('The lender API bearer (as /oauth/token issues it), naming the lender'),
    expires_in: z.number().int().describe('Seconds until the token expires: sign in again then'),
    scope: z.string(),
    token_type: z.literal('Bearer'),
  })
  .meta({ id: 'LenderConsoleSession', description: "A lender console session's token" });
export type LenderConsoleSession = z.infer<typeof LenderConsoleSession>;

export async function signInToLenderConsole(
  ctx: ServiceContext,
  { username, password }: z.output<typeof LenderConsoleSignIn>,
  clientAddress: string,
): Promise<LenderConsoleSession> {
  // The console has no client id: both of the throttle's names are the username.
  const throttleName = `console:${username}`;
  await ctx.auth.lenderTokenThrottle.beginAttempt(clientAddress, throttleName, username);
  const lender = await ctx.db.lender.findFirst({ where: { username, environment: ctx.environment, active: true } });
  const passwordOk = await verifyPassword(lender?.passwordHash, password);
  if (!lender || !lender.clientId || !passwordOk) {
    audit(ctx.logger, 'lender_console.sign_in_failed', { lenderId: lender?.id ?? null, ip: clientAddress });
    throw AppError.unauthenticated('Username or password is incorrect');
  }
  await ctx.auth.lenderTokenThrottle.recordSuccess(clientAddress, throttleName, username);
  const scope = scopeString(CONSOLE_SCOPES);
  const idToken = await ctx.auth.tokens.sign(
    { tkn: 'lender', scope, lid: lender.id, azp: lender.clientId, name: lender.name },
    { subject: `lender:${lender.id}`, ttlSeconds: LENDER_CONSOLE_SESSION_SECONDS, audience: lender.clientId },
  );
  audit(ctx.logger, 'lender_console.signed_in', { lenderId: lender.id, ip: clientAddress });
  return { id_token: idToken, expires_in: LENDER_CONSOLE_SESSION_SECONDS, scope, token_type: 'Bearer' };
}
