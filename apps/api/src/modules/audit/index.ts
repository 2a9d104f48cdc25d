/** The audit module's port: what other modules may import of it (never its service or repository files). */

export type { AuditRepository } from './audit.repository.js';
