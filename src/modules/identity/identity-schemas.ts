/** Request and response shapes of platform logins, API keys and users, declared once (zod). */
import { z } from 'zod';
import { API_KEY_SCOPES } from '../../kernel/scopes.js';
import { Password } from './password-policy.js';

export const LoginBody = z.strictObject({
  email: z.string().trim().min(1, 'must not be empty').max(320),
  password: z.string().min(1, 'must not be empty').max(1024),
});

export const CreateApiKeyBody = z.strictObject({
  name: z.string().trim().min(1, 'must not be empty').max(100),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { message: `must be one of ${API_KEY_SCOPES.join(', ')}` }))
    .min(1, 'must name at least one scope')
    .refine((s) => new Set(s).size === s.length, 'must not repeat a scope'),
  expiresAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional(),
  /** Extension: a master key's Marketplace V1 profiles can be moved to the account's other keys. */
  isMaster: z.boolean().optional(),
  /**
   * The live platform takes an optional partner key here; this gateway has no partner keys to link
   * one to, so it is named as unsupported rather than silently dropped or refused as unknown.
   */
  partnerApiKey: z.never({ error: 'is not supported: this gateway does not link partner API keys; leave it out' }).optional(),
});
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

const Email = z
  .email({ message: 'must be an email address' })
  .max(320)
  .transform((e) => e.toLowerCase());

export const CreateUserBody = z.strictObject({
  email: Email,
  password: Password,
  name: z.string().trim().min(1).max(200).optional(),
  role: z.enum(['MEMBER', 'ADMIN'], { message: 'must be MEMBER or ADMIN' }).default('MEMBER'),
});

export const UpdateUserBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    password: Password.optional(),
    /** Required with `password` when users change their own: a stolen session alone cannot take over the account. */
    currentPassword: z.string().min(1, 'must not be empty').max(1024).optional(),
    role: z.enum(['MEMBER', 'ADMIN'], { message: 'must be MEMBER or ADMIN' }).optional(),
    disabled: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).some((k) => k !== 'currentPassword'), { message: 'must change at least one field' })
  .refine((b) => b.currentPassword === undefined || b.password !== undefined, { message: 'goes only with password', path: ['currentPassword'] });

/** A token answer (spec 5.1-5.7, OAuth 2.0 style); refresh_token comes with the exchanges that open or rotate a refresh family. */
export const TokenResponse = z
  .strictObject({
    access_token: z.string(),
    expires_in: z.number().int().describe('Seconds until the token expires'),
    refresh_token: z.string().optional().describe('Single use: exchange it at …/auth/refresh-token for a new pair'),
    scope: z.string().describe('The scopes the token holds, space-separated'),
    token_type: z.literal('Bearer'),
  })
  .meta({ id: 'TokenResponse' });
export type TokenResponse = z.infer<typeof TokenResponse>;

/** The Marketplace V1 token pair (spec 5.6): { jwt, refreshToken, expiresIn }. */
export const MarketplaceV1Tokens = z
  .strictObject({
    jwt: z.string(),
    refreshToken: z.string().describe('Single use: exchange it at …/auth/refresh-token for a new pair'),
    expiresIn: z.number().int().describe('Seconds until the jwt expires'),
  })
  .meta({ id: 'MarketplaceV1Tokens' });
export type MarketplaceV1Tokens = z.infer<typeof MarketplaceV1Tokens>;

const NullableDateTime = z.iso.datetime().nullable();

/** An API key as listed: never its secret. */
const ApiKeyFields = z.strictObject({
  id: z.uuid(),
  name: z.string(),
  keyPrefix: z.string().describe("The key's public id (key_…), e.g. the targetApiKey of a profile move"),
  scopes: z.array(z.string()),
  isMaster: z.boolean(),
  expiresAt: NullableDateTime,
  revokedAt: NullableDateTime,
  lastUsedAt: NullableDateTime,
  createdAt: z.iso.datetime(),
});
export const ApiKey = ApiKeyFields.meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

/** A key just created: the key itself appears in this answer only. */
export const CreatedApiKey = ApiKeyFields.extend({
  key: z
    .string()
    .optional()
    .describe(
      'The API key (fgk_…): shown once, stored as a digest. Absent from the replay of a request with the same `Idempotency-Key`: the secret is in the first answer only (revoke that key and create another if the first answer was lost)',
    ),
}).meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const PlatformUser = z
  .strictObject({
    id: z.uuid(),
    email: z.string(),
    name: z.string().nullable(),
    role: z.enum(['MEMBER', 'ADMIN', 'STAFF']),
    disabled: z.boolean(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'PlatformUser', description: 'A platform user of the account' });
export type PlatformUser = z.infer<typeof PlatformUser>;
