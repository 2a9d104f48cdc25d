import { keepListening } from '../../db/invalidation-listener.js';
import { deriveKey } from '../../lib/secrets.js';
import { TokenSigner } from '../../lib/tokens.js';
import { defineModule } from '../module.js';
import { ApiKeysRepository } from './api-keys.repository.js';
import { registerApiKeyRoutes } from './api-keys.routes.js';
import { ApiKeysService } from './api-keys.service.js';
import { AttemptThrottle } from './attempt-throttle.js';
import { DEFAULT_LOGIN_FLOOD_LIMIT, registerAuthRoutes } from './auth.routes.js';
import { AuthService, DEFAULT_LOGIN_THROTTLE, type LoginThrottle } from './auth.service.js';
import { DEFAULT_KEY_RATE_LIMIT, KeyRateLimiter } from './key-rate-limiter.js';
import { LoginThrottleRepository } from './login-throttle.repository.js';
import { AUTH_INVALIDATION_CHANNEL } from './session-cache.js';
import type { SessionRevocation } from './session-revocation.js';
import { SessionsRepository } from './sessions.repository.js';
import { TwoFactorRepository } from './two-factor.repository.js';
import { registerTwoFactorRoutes } from './two-factor.routes.js';
import { TwoFactorService } from './two-factor.service.js';

declare module '../module.js' {
  interface AppOptions {
    loginThrottle?: LoginThrottle;
    /** Login requests per address and window, failed or not. */
    loginFloodLimit?: { max: number; timeWindow: string };
    /** Requests per API key and minute (KEY_RATE_LIMIT; 600 by default). */
    keyRateLimit?: number;
  }
  interface AppServices {
    auth: AuthService;
    apiKeys: ApiKeysService;
    /** Two-factor sign-in: enrolment, codes, the admins' reset and the security settings. */
    twoFactor: TwoFactorService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    sessions: SessionsRepository;
    apiKeys: ApiKeysRepository;
    loginThrottle: LoginThrottleRepository;
    twoFactor: TwoFactorRepository;
    /** The auth module's port for the accounts module: revoking an account's sessions (new password) and keys (new role). */
    sessionRevocation: SessionRevocation;
  }
}

declare module '../access/access.js' {
  interface AccessResources {
    apiKey: true;
  }
}

/** Sign-in, the sessions behind every token, API keys, two-factor sign-in, and impersonation. */
export const authModule = defineModule({
  name: 'auth',
  tables: [
    'sessions',
    'api_keys',
    'api_key_uses',
    'login_failures',
    'login_trusted_addresses',
    'account_two_factor',
    'two_factor_recovery_codes',
    'two_factor_tickets',
    'security_settings',
  ],
  repositories: {
    sessions: SessionsRepository,
    apiKeys: ApiKeysRepository,
    loginThrottle: LoginThrottleRepository,
    twoFactor: TwoFactorRepository,
  },
  ports: {
    sessionRevocation: (uow) => ({
      revokeAccount: (accountId, now, keep) => uow.sessions.revokeAccount(accountId, now, keep),
      revokeRoleCredentials: async (accountId, now) => {
        await uow.sessions.revokeAccountAndImpersonations(accountId, now);
        await uow.apiKeys.revokeAccount(accountId, now);
      },
    }),
  },
  // A revoked key is not found: revoking it twice answers 404.
  access: { apiKey: { entity: 'API key', table: 'api_keys', owner: 'account_id', unlessSet: 'revoked_at' } },
  tags: {
    auth: 'Sign-in, sessions, two-factor sign-in and impersonation.',
    'api-keys': "An account's API keys: made, listed and revoked by their owner.",
  },
  register(app, { uow, clock, options, scryptCost, hashing, sessionCache, secrets }) {
    keepListening(app, options.database, AUTH_INVALIDATION_CHANNEL, sessionCache);
    const apiKeys = new ApiKeysService({
      uow,
      clock,
      sessionCache,
      rateLimiter: new KeyRateLimiter(options.keyRateLimit ?? DEFAULT_KEY_RATE_LIMIT),
    });
    app.services.apiKeys = apiKeys;
    // Passwords and two-factor codes are counted by one throttle (per address, username, account).
    const throttle = new AttemptThrottle(uow, options.loginThrottle ?? DEFAULT_LOGIN_THROTTLE);
    // Enrolment asks for the password again as sign-in checks it: the auth service, made just below.
    const twoFactor = new TwoFactorService({
      uow,
      clock,
      secrets,
      throttle,
      reauthenticate: (caller, password, address) => auth.reauthenticate(caller, password, address),
    });
    app.services.twoFactor = twoFactor;
    const auth: AuthService = new AuthService({
      uow,
      signer: new TokenSigner(deriveKey(options.secret, 'jwt'), clock),
      clock,
      scryptCost,
      throttle,
      hashing,
      sessionCache,
      apiKeys,
      twoFactor,
    });
    app.services.auth = auth;
    const floodLimit = options.loginFloodLimit ?? DEFAULT_LOGIN_FLOOD_LIMIT;
    registerAuthRoutes(app, auth, floodLimit);
    registerTwoFactorRoutes(app, auth, twoFactor, floodLimit);
    registerApiKeyRoutes(app, apiKeys);
  },
});
