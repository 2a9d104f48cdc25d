import { Readable } from 'node:stream';
import { auditRoutes } from '@streamcloud/contract';
import type { FastifyInstance } from 'fastify';
import { addRoute } from '../../lib/route.js';
import type { AuditService } from './audit.service.js';

export function registerAuditRoutes(app: FastifyInstance, audit: AuditService): void {
  addRoute(app, auditRoutes.list, ({ auth, query }) => audit.page(auth, query));
  addRoute(app, auditRoutes.export, async ({ auth, query, reply }) => {
    const lines = audit.csv(auth, query);
    reply.type('text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="audit.csv"');
    return Readable.from(lines) as unknown as string;
  });
}
