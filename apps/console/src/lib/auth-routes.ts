// Loaded with the first sign-in, impersonation or sign-out call (auth-store.ts): the routes bring zod,
// which the sign-in page does without until the user signs in.
export { accountRoutes, authRoutes, twoFactorRoutes } from '@streamcloud/contract';
