import { runInRequestContext } from '../../lib/request-context.js';
import { defineModule } from '../module.js';
import { registerAuditRoutes } from './audit.routes.js';
import { AuditService } from './audit.service.js';

/**
 * The audit log's reading side (`/audit`), and the request context its records take the source address
 * from (every module writes records through `uow.audit`).
 */
export const auditModule = defineModule('audit', (app, { uow }) => {
  app.addHook('preHandler', (request, _reply, done) => runInRequestContext({ address: request.ip }, done));
  const audit = new AuditService({ uow });
  app.services.audit = audit;
  registerAuditRoutes(app, audit);
});
