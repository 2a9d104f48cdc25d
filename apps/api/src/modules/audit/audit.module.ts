import { runInRequestContext } from '../../lib/request-context.js';
import { defineModule } from '../module.js';
import { AuditRepository } from './audit.repository.js';
import { registerAuditRoutes } from './audit.routes.js';
import { AuditService } from './audit.service.js';

declare module '../module.js' {
  interface AppServices {
    /** Reads the audit log (every module writes it through `uow.audit`). */
    audit: AuditService;
  }
}

declare module '../../db/unit-of-work.js' {
  interface UnitOfWorkParts {
    /** Every module writes its audit records here (`uow.audit.recordBy`). */
    audit: AuditRepository;
  }
}

/**
 * The audit log's reading side (`/audit`), and the request context its records take the source address
 * from (every module writes records through `uow.audit`).
 */
export const auditModule = defineModule({
  name: 'audit',
  tables: ['audit_log'],
  repositories: { audit: AuditRepository },
  tags: { audit: 'The audit log: every write, who made it and which admin impersonated.' },
  register(app, { uow }) {
    app.addHook('preHandler', (request, _reply, done) => runInRequestContext({ address: request.ip }, done));
    const audit = new AuditService({ uow });
    app.services.audit = audit;
    registerAuditRoutes(app, audit);
  },
});
