import { defineModule } from '../module.js';
import { type AccountCredentials, AccountsRepository } from './accounts.repository.js';
import { registerAccountRoutes } from './accounts.routes.js';
import { AccountsService } from './accounts.service.js';

declare module '../module.js' {
  interface AppServices {
    accounts: AccountsService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    accounts: AccountsRepository;
    /** The accounts module's port for sign-in: accounts with their password hashes. */
    credentials: AccountCredentials;
  }
}

/** Accounts (ADMIN manages them; everyone reads their own), and impersonation's entry point. */
export const accountsModule = defineModule({
  name: 'accounts',
  dependencies: ['auth'],
  tables: ['accounts'],
  repositories: { accounts: AccountsRepository },
  ports: { credentials: (uow) => uow.accounts },
  tags: { accounts: 'Accounts (ADMIN manages them; everyone reads its own) and impersonation.' },
  register(app, { uow, clock, scryptCost, hashing }) {
    const accounts = new AccountsService({ uow, clock, scryptCost, hashing, twoFactor: app.services.twoFactor });
    app.services.accounts = accounts;
    registerAccountRoutes(app, accounts, app.services.auth);
  },
});
