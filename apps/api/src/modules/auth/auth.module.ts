import { deriveKey } from '../../lib/secrets.js';
import { TokenSigner } from '../../lib/tokens.js';
import { defineModule } from '../module.js';
import { registerAuthRoutes } from './auth.routes.js';
import { AuthService, DEFAULT_LOGIN_THROTTLE } from './auth.service.js';

/** Sign-in, the sessions behind every token, and impersonation. */
export const authModule = defineModule('auth', (app, { uow, clock, options, scryptCost, hashing }) => {
  const auth = new AuthService({
    uow,
    signer: new TokenSigner(deriveKey(options.secret, 'jwt'), clock),
    clock,
    scryptCost,
    loginThrottle: options.loginThrottle ?? DEFAULT_LOGIN_THROTTLE,
    hashing,
  });
  app.services.auth = auth;
  registerAuthRoutes(app, auth, options.loginFloodLimit);
});
