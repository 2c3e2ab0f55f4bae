/**
 * Making the first identities of a deployment, outside any request: an account with its first
 * platform user, and a lender's API credentials. Used by the bootstrap CLI (src/processes/cli/admin.ts), the
 * demo seed and tests; the secrets are returned once and stored only as digests.
 */
import { assertWebhookUrl } from '../webhooks/webhook-url-policy.js';
import type { Db } from '../../infra/database.js';
import type { DeployEnvironment } from '../../kernel/context.js';
import type { PlatformRole } from '../../kernel/actor.js';
import { digest, hashPassword, newLenderClientCredentials, newPassword } from './secrets.js';
import { newWebhookSecret } from '../webhooks/webhook-signature.js';
import { randomBytes } from 'node:crypto';
import { lenderApiAudienceOf } from './lender-oauth-service.js';
import { newAuthorizationTokenKey } from '../webhooks/authorization-token.js';

export interface NewAccountUser {
  environment: DeployEnvironment;
  accountName: string;
  email: string;
  password: string;
  name?: string;
  role?: PlatformRole;
}

/** Creates an account and its first user (ADMIN unless told otherwise). */
export async function createAccountWithUser(db: Db, input: NewAccountUser): Promise<{ accountId: string; userId: string }> {
  const passwordHash = await hashPassword(input.password);
  return db.$transaction(async (tx) => {
    const account = await tx.account.create({ data: { name: input.accountName, environment: input.environment } });
    const user = await tx.platformUser.create({
      data: {
        accountId: account.id,
        email: input.email.trim().toLowerCase(),
        name: input.name ?? null,
        role: input.role ?? 'ADMIN',
        passwordHash,
        environment: input.environment,
      },
    });
    return { accountId: account.id, userId: user.id };
  });
}

/** What a lender is handed once: OAuth credentials (spec 5.9) and the webhook verification secrets. */
export interface LenderCredentials {
  lenderId: number;
  /** The lender's slug: the `lender` label of /metrics and the field of the log lines that name it. */
  slug: string;
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  webhookSecret: string;
  /**
   * Key of the lender's per-application apiProvider.authorizationToken: the token of application
   * <id> is base64url(HMAC-SHA256(key, "application:<id>")). The key itself is never sent.
   */
  authorizationTokenKey: string;
  /** Until when deliveries are also signed with the previous webhook secret (null: there was none). */
  previousWebhookSecretValidUntil: string | null;
  /** The `audience` of the lender's token requests: the lender API's URL under this deployment's PUBLIC_URL. */
  audience: string;
}

export interface NewLender {
  environment: DeployEnvironment;
  /** This deployment's PUBLIC_URL, from which the lender's token audience follows. */
  publicUrl: string;
  name: string;
  applicationUrl: string;
  updateUrl?: string;
  /** ALLOW_PRIVATE_WEBHOOK_URLS: the same policy as deliveries, applied before anything is stored. */
  allowPrivateWebhookUrls?: boolean;
}

export async function registerLender(db: Db, input: NewLender): Promise<LenderCredentials> {
  const policy = { environment: input.environment, allowPrivateAddresses: input.allowPrivateWebhookUrls ?? false, allowUnresolved: true };
  await assertWebhookUrl(input.applicationUrl, policy, 'application-url');
  if (input.updateUrl !== undefined) await assertWebhookUrl(input.updateUrl, policy, 'update-url');
  const slug = `${input.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}-${randomBytes(3).toString('hex')}`;
  const lender = await db.lender.create({
    data: {
      environment: input.environment,
      name: input.name,
      slug,
      applicationUrl: input.applicationUrl,
      updateUrl: input.updateUrl ?? null,
    },
  });
  return issueLenderCredentials(db, lender.id, input.environment, input.publicUrl);
}

/** How long deliveries stay signed with a rotated-out webhook secret too, unless told (WEBHOOK_SECRET_OVERLAP_SECONDS). */
const DEFAULT_WEBHOOK_SECRET_OVERLAP_SECONDS = 86_400;

export interface CredentialRotation {
  /** Seconds during which deliveries carry a signature with the previous webhook secret as well; 0: none. */
  webhookSecretOverlapSeconds?: number;
  now?: Date;
}

/**
 * (Re)issues a lender's credentials. The OAuth client secret, password and authorization token key
 * stop working at once (every pending delivery is sent with tokens of the new key); the previous
 * webhook secret keeps signing, beside the new one, for the overlap window, so deliveries already on
 * their way still verify while the lender installs the new secret.
 */
export async function issueLenderCredentials(
  db: Db,
  lenderId: number,
  environment: DeployEnvironment,
  publicUrl: string,
  rotation: CredentialRotation = {},
): Promise<LenderCredentials> {
  const { clientId, clientSecret } = newLenderClientCredentials(environment);
  const username = `${clientId.replace(/^lnd_/, 'api_')}`;
  const password = newPassword();
  const webhookSecret = newWebhookSecret();
  const authorizationTokenKey = newAuthorizationTokenKey();
  const overlapSeconds = rotation.webhookSecretOverlapSeconds ?? DEFAULT_WEBHOOK_SECRET_OVERLAP_SECONDS;
  const passwordHash = await hashPassword(password);
  const { until: previousWebhookSecretValidUntil, slug } = await db.$transaction(async (tx) => {
    // Two rotations at once must not both keep the same "previous" secret while one of theirs is lost.
    await tx.$queryRaw`SELECT id FROM lender WHERE id = ${lenderId} FOR UPDATE`;
    const current = await tx.lender.findUniqueOrThrow({ where: { id: lenderId, environment }, select: { webhookSecret: true, slug: true } });
    const until = current.webhookSecret && overlapSeconds > 0 ? new Date((rotation.now ?? new Date()).getTime() + overlapSeconds * 1000) : null;
    await tx.lender.update({
      where: { id: lenderId, environment },
      data: {
        clientId,
        clientSecretHash: digest(clientSecret),
        username,
        passwordHash,
        webhookSecret,
        previousWebhookSecret: until ? current.webhookSecret : null,
        previousWebhookSecretExpiresAt: until,
        authorizationTokenKey,
      },
    });
    return { until, slug: current.slug };
  });
  return {
    lenderId,
    slug,
    clientId,
    clientSecret,
    username,
    password,
    webhookSecret,
    authorizationTokenKey,
    previousWebhookSecretValidUntil: previousWebhookSecretValidUntil?.toISOString() ?? null,
    audience: lenderApiAudienceOf(publicUrl),
  };
}
