// The account as every reader sees it, and whoami: kept apart from accounts.ts (managing accounts) so a
// reader of these alone (the console's signed-in frame, on its first load) builds these few schemas and
// not the management bodies (docs/decisions.md, issue 21). accounts.ts lists this route as
// `accountRoutes.whoami`.
import { z } from 'zod';
import { Id, Role, Timestamp } from './common.js';
import { defineRoute } from './routes.js';

export const Account = z.object({
  id: Id,
  username: z.string(),
  email: z.string().nullable(),
  role: Role,
  createdAt: Timestamp,
});
export type Account = z.infer<typeof Account>;

/** The signed-in account, plus who is really acting while an admin impersonates it. */
export const WhoAmI = Account.extend({
  impersonatedBy: z.object({ id: Id, username: z.string() }).nullable(),
  /**
   * An ADMIN without two-factor sign-in while the security settings require it: the console sends it to
   * enrol before anything else (docs/decisions.md, "Two-factor sign-in").
   */
  twoFactorEnrolmentRequired: z.boolean(),
});
export type WhoAmI = z.infer<typeof WhoAmI>;

/** `accountRoutes.whoami`, importable without the rest of the account routes. */
export const whoAmIRoute = defineRoute({
  method: 'GET',
  path: '/accounts/whoami',
  summary: 'The account the presented token acts as',
  tag: 'accounts',
  auth: 'user',
  beforeTwoFactorEnrolment: true,
  response: WhoAmI,
});
