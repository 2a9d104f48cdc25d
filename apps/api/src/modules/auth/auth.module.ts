import { keepListening } from '../../db/invalidation-listener.js';
import { deriveKey } from '../../lib/secrets.js';
import { TokenSigner } from '../../lib/tokens.js';
import { defineModule } from '../module.js';
import { registerApiKeyRoutes } from './api-keys.routes.js';
import { ApiKeysService } from './api-keys.service.js';
import { AttemptThrottle } from './attempt-throttle.js';
import { DEFAULT_LOGIN_FLOOD_LIMIT, registerAuthRoutes } from './auth.routes.js';
import { AuthService, DEFAULT_LOGIN_THROTTLE } from './auth.service.js';
import { DEFAULT_KEY_RATE_LIMIT, KeyRateLimiter } from './key-rate-limiter.js';
import { AUTH_INVALIDATION_CHANNEL } from './session-cache.js';
import { registerTwoFactorRoutes } from './two-factor.routes.js';
import { TwoFactorService } from './two-factor.service.js';

/** Sign-in, the sessions behind every token, API keys, and impersonation. */
export const authModule = defineModule(
  'auth',
  (app, { uow, clock, options, scryptCost, hashing, sessionCache, secrets }) => {
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
);
