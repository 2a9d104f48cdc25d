/** The auth module's port: what other modules may import of it (never its service or repository files). */

export type { AuthService } from './auth.service.js';
export type { TwoFactorService } from './two-factor.service.js';
