import { accountRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { AuthService } from '../auth/index.js';
import type { AccountsService } from './accounts.service.js';

export function registerAccountRoutes(app: FastifyInstance, accounts: AccountsService, auth: AuthService): void {
  addRoute(app, accountRoutes.list, () => accounts.list());
  addRoute(app, accountRoutes.create, ({ auth: caller, body }) => accounts.create(caller, body));
  addRoute(app, accountRoutes.whoami, ({ auth: caller }) => accounts.whoami(caller));
  addRoute(app, accountRoutes.get, ({ auth: caller, params }) => accounts.get(caller, params.id));
  addRoute(app, accountRoutes.update, ({ auth: caller, params, body }) => accounts.update(caller, params.id, body));
  addRoute(app, accountRoutes.delete, ({ auth: caller, params }) => accounts.delete(caller, params.id));
  addRoute(app, accountRoutes.impersonate, async ({ auth: caller, params }) => ({
    token: await auth.startImpersonation(caller, params.id),
  }));
}
