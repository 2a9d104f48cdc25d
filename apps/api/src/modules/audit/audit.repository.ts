import type { AuditResult } from '@streamcloud/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { currentRequest } from '../../lib/request-context.js';

export interface AuditEntry {
  actorId: string | null;
  actingAdminId: string | null;
  action: string;
  targetType?: string;
  targetId?: string;
  details?: Record<string, unknown>;
  /** `success` unless told otherwise: only sign-ins record failures. */
  result?: AuditResult;
}

/** Which entries a page or an export reads (all optional). */
export interface AuditRowFilter {
  actorId: string | null;
  targetType?: string | undefined;
  action?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** Where a page ends: the last entry's time (in microseconds since the epoch, exact) and number. */
export interface AuditPosition {
  atMicros: string;
  id: string;
}

export interface AuditRow {
  id: string;
  at: Date;
  at_micros: string;
  actor_id: string | null;
  actor_username: string | null;
  acting_admin_id: string | null;
  acting_admin_username: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  source_address: string | null;
  result: AuditResult;
  details: unknown;
}

/** Who did what, from where, with which result, and which admin was behind it while impersonating. */
export class AuditRepository {
  constructor(private readonly db: Db) {}

  async record(entry: AuditEntry, at: Date): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({
        at,
        actor_id: entry.actorId,
        acting_admin_id: entry.actingAdminId,
        action: entry.action,
        target_type: entry.targetType ?? null,
        target_id: entry.targetId ?? null,
        details: entry.details ? JSON.stringify(entry.details) : null,
        source_address: currentRequest()?.address ?? null,
        result: entry.result ?? 'success',
      })
      .execute();
  }

  /** Records what a caller did (null: the system itself), with the admin behind an impersonation. */
  recordBy(auth: AuthContext | null, entry: Omit<AuditEntry, 'actorId' | 'actingAdminId'>, at: Date): Promise<void> {
    return this.record({ actorId: auth?.accountId ?? null, actingAdminId: auth?.actingAdminId ?? null, ...entry }, at);
  }

  async list(limit: number) {
    return this.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(limit).execute();
  }

  /**
   * Up to `limit` entries, newest first, after `position` (keyset paging on (at, id): each filter has an
   * index on (filter, at, id), so any page costs one index range scan whatever its depth).
   */
  page(filter: AuditRowFilter, position: AuditPosition | null, limit: number): Promise<AuditRow[]> {
    let query = this.db
      .selectFrom('audit_log as l')
      .leftJoin('accounts as actor', 'actor.id', 'l.actor_id')
      .leftJoin('accounts as admin', 'admin.id', 'l.acting_admin_id')
      .select([
        sql<string>`cast(l.id as text)`.as('id'),
        'l.at',
        sql<string>`cast(cast(extract(epoch from l.at) * 1000000 as bigint) as text)`.as('at_micros'),
        'l.actor_id',
        'actor.username as actor_username',
        'l.acting_admin_id',
        'admin.username as acting_admin_username',
        'l.action',
        'l.target_type',
        'l.target_id',
        'l.source_address',
        'l.result',
        'l.details',
      ]);
    if (filter.actorId !== null) query = query.where('l.actor_id', '=', filter.actorId);
    if (filter.targetType !== undefined) query = query.where('l.target_type', '=', filter.targetType);
    if (filter.action !== undefined) query = query.where('l.action', '=', filter.action);
    if (filter.from !== undefined) query = query.where('l.at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('l.at', '<', filter.to);
    if (position) {
      query = query.where(
        sql<boolean>`(l.at, l.id) < (timestamptz 'epoch' + cast(${position.atMicros} as double precision) * interval '1 microsecond', cast(${position.id} as bigint))`,
      );
    }
    return query.orderBy('l.at', 'desc').orderBy('l.id', 'desc').limit(limit).execute() as Promise<AuditRow[]>;
  }
}
