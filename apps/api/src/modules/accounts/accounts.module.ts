import { defineModule } from '../module.js';
import { registerAccountRoutes } from './accounts.routes.js';
import { AccountsService } from './accounts.service.js';

/** Accounts (ADMIN manages them; everyone reads their own), and impersonation's entry point. */
export const accountsModule = defineModule(
  'accounts',
  (app, { uow, clock, scryptCost, hashing }) => {
    const accounts = new AccountsService({ uow, clock, scryptCost, hashing, twoFactor: app.services.twoFactor });
    app.services.accounts = accounts;
    registerAccountRoutes(app, accounts, app.services.auth);
  },
  ['auth'],
);
