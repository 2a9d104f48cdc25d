import {
  AUDIT_CSV_HEADER,
  AUDIT_CURSOR,
  type AuditEntry,
  type AuditFilter,
  type AuditQuery,
  csvRecord,
} from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { JsonText } from '../../lib/route.js';
import type { AuditPosition, AuditRow, AuditRowFilter } from './audit.repository.js';

/** Entries an export reads per query: big enough to be quick, small enough to hold in memory. */
const EXPORT_BATCH = 1000;

export interface AuditServiceDeps {
  uow: Scope<'audit' | 'access'>;
}

const positionOf = (cursor: string | undefined): AuditPosition | null => {
  const match = cursor === undefined ? null : AUDIT_CURSOR.exec(cursor);
  return match ? { atMicros: match[1] as string, id: match[2] as string } : null;
};

/**
 * One entry as the caller may see it: which admin acted behind an impersonation is shown to everyone who sees
 * the entry; the admin's own network address (the entry's source address) to ADMIN callers only.
 */
export function toEntry(row: AuditRow, auth: AuthContext): AuditEntry {
  const impersonated = row.acting_admin_id !== null && row.acting_admin_id !== row.actor_id;
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actor_id ? { id: row.actor_id, username: row.actor_username } : null,
    actingAdmin: row.acting_admin_id ? { id: row.acting_admin_id, username: row.acting_admin_username } : null,
    impersonated,
    action: row.action,
    resourceType: row.target_type,
    resourceId: row.target_id,
    sourceAddress: impersonated && auth.role !== 'ADMIN' ? null : row.source_address,
    result: row.result,
    details: row.details && typeof row.details === 'object' ? (row.details as Record<string, unknown>) : {},
  };
}

const nameOf = (ref: { id: string; username: string | null } | null) => (ref ? (ref.username ?? ref.id) : '');

/** Reads the audit log: ADMIN every account's entries, a USER its own account's. */
export class AuditService {
  constructor(private readonly deps: AuditServiceDeps) {}

  private filterOf(auth: AuthContext, filter: AuditFilter): AuditRowFilter {
    return {
      actorId: this.deps.uow.access.accountScope(auth, filter.account),
      targetType: filter.resourceType,
      action: filter.action,
      from: filter.from ? new Date(filter.from) : undefined,
      to: filter.to ? new Date(filter.to) : undefined,
    };
  }

  /** A page as the route's JSON, written by the database (see `AuditRepository.pageJson`). */
  async page(auth: AuthContext, query: AuditQuery): Promise<JsonText> {
    const { items, next } = await this.deps.uow.audit.pageJson(
      this.filterOf(auth, query),
      positionOf(query.cursor),
      query.limit,
      auth.role === 'ADMIN',
    );
    const nextCursor = next ? `"${next.atMicros}-${next.id}"` : 'null';
    return new JsonText(`{"items":[${items}],"nextCursor":${nextCursor}}`);
  }

  /**
   * The CSV of every entry the filter selects, newest first, a batch of rows at a time, so an export of
   * millions of entries streams in constant memory. The filter is checked before the first line.
   */
  csv(auth: AuthContext, filter: AuditFilter): AsyncGenerator<string> {
    const rowFilter = this.filterOf(auth, filter);
    const { audit } = this.deps.uow;
    return (async function* lines() {
      yield `${csvRecord(AUDIT_CSV_HEADER)}\r\n`;
      let position: AuditPosition | null = null;
      for (;;) {
        const rows = await audit.page(rowFilter, position, EXPORT_BATCH);
        if (rows.length === 0) return;
        yield rows
          .map((row) => {
            const entry = toEntry(row, auth);
            return `${csvRecord([
              entry.at,
              nameOf(entry.actor),
              nameOf(entry.actingAdmin),
              entry.action,
              entry.resourceType ?? '',
              entry.resourceId ?? '',
              entry.sourceAddress ?? '',
              entry.result,
              Object.keys(entry.details).length > 0 ? JSON.stringify(entry.details) : '',
            ])}\r\n`;
          })
          .join('');
        const last = rows.at(-1) as AuditRow;
        position = { atMicros: last.at_micros, id: last.id };
        if (rows.length < EXPORT_BATCH) return;
      }
    })();
  }
}
