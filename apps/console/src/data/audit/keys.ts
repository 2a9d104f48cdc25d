import type { AuditFilter } from '@streamcloud/contract';

/** Query keys of the audit log, narrowest last. */
export const auditKeys = {
  all: ['audit'] as const,
  lists: () => [...auditKeys.all, 'list'] as const,
  list: (filter: AuditFilter) => [...auditKeys.lists(), filter] as const,
};
