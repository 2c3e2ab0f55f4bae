/**
 * The identity module's part of every ServiceContext: the process's credential machinery (token
 * signing and verification, sign-in throttles, revocation status), joined to the kernel's context
 * by declaration merging so that the kernel never imports a module.
 */
import type { CredentialStatus } from './credential-status.js';
import type { LenderTokenThrottle } from './lender-token-throttle.js';
import type { LoginThrottle } from './login-throttle.js';
import type { TokenAuthority } from './token-authority.js';

export interface AuthKit {
  tokens: TokenAuthority;
  loginThrottle: LoginThrottle;
  lenderTokenThrottle: LenderTokenThrottle;
  credentialStatus: CredentialStatus;
  /** Audiences /oauth/token accepts as aliases of the lender API's own (LENDER_AUDIENCE_ALIASES). */
  lenderAudienceAliases: readonly string[];
}

declare module '../../kernel/context.js' {
  interface ServiceContext {
    auth: AuthKit;
  }
}
