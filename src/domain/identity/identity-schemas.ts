/** Request and response shapes of platform logins, API keys and users, declared once (zod). */
import { z } from 'zod';
import { API_KEY_SCOPES } from './scopes.js';

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

/** Passwords: long enough to resist guessing; no composition rules (NIST SP 800-63B). */
export const Password = z.string().min(12, 'must be at least 12 characters').max(1024);

const Email = z.email({ message: 'must be an email address' }).max(320).transform((e) => e.toLowerCase());

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

export interface ApiKeyDto {
  id: string;
  name: string;
  keyPrefix: string;
  scopes: string[];
  isMaster: boolean;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface UserDto {
  id: string;
  email: string;
  name: string | null;
  role: string;
  disabled: boolean;
  createdAt: string;
  updatedAt: string;
}
