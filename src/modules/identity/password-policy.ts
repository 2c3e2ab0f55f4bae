/**
 * What a platform user's password must be, after NIST SP 800-63B (5.1.1.2, memorized secrets): long
 * enough (12 characters at least, up to 1024), more than
 * whitespace, and not on a list of commonly used passwords (the 49,000 of @zxcvbn-ts/language-common,
 * compared case-insensitively, so `Password1234` is refused like `password1234`). No composition
 * rules, no expiry, every character (spaces included) allowed, as the guideline says. Every path
 * that sets a password takes it through `Password`: creating a user, changing one, the admin CLI.
 */
import { createRequire } from 'node:module';
import { z } from 'zod';
import type * as LanguageCommonModule from '@zxcvbn-ts/language-common';
import { loadOnFirstUse } from '../../kernel/load-on-first-use.js';

const PASSWORD_MIN_CHARACTERS = 12;
const PASSWORD_MAX_CHARACTERS = 1024;

/** Loaded when a password is first set, not at start (about 30 ms to decompress). */
const commonPasswords = loadOnFirstUse(() => {
  const { dictionary } = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as typeof LanguageCommonModule;
  return new Set(dictionary['passwords-common'].map((password) => password.toLowerCase()));
});

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

export const Password = z
  .string()
  .min(PASSWORD_MIN_CHARACTERS, `must be at least ${PASSWORD_MIN_CHARACTERS} characters`)
  .max(PASSWORD_MAX_CHARACTERS, `must be at most ${PASSWORD_MAX_CHARACTERS} characters`)
  .refine((p) => p.trim() !== '', 'must not be only spaces or other whitespace')
  .refine((p) => !isCommonPassword(p), 'is one of the most commonly used passwords: choose one that is not')
  .meta({ description: `At least ${PASSWORD_MIN_CHARACTERS} characters, not only whitespace, not a commonly used password (NIST SP 800-63B)` });
