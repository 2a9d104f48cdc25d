import type { AuditResult } from '@streamcloud/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { precompiled } from '../../db/precompiled.js';
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
    return filteredEntries(this.db, filter, position)
      .leftJoin('accounts as actor', 'actor.id', 'l.actor_id')
      .leftJoin('accounts as admin', 'admin.id', 'l.acting_admin_id')
      .select([
        sql<string>`cast(l.id as text)`.as('id'),
        'l.at',
        sql<string>`${atMicros}`.as('at_micros'),
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
      ])
      .orderBy('l.at', 'desc')
      .orderBy('l.id', 'desc')
      .limit(limit)
      .execute() as Promise<AuditRow[]>;
  }

  /**
   * A page as the contract's `AuditEntry` JSON objects (joined by commas, without the brackets), written by
   * the database, and the position of its last entry when more follow (see `pageJsonQuery`).
   * `withAdminAddresses`: whether the caller may see the source address of entries an admin made impersonating
   * the account (ADMIN callers; to others it is the admin's own network address).
   */
  async pageJson(
    filter: AuditRowFilter,
    position: AuditPosition | null,
    limit: number,
    withAdminAddresses: boolean,
  ): Promise<{ items: string; next: AuditPosition | null }> {
    const rows = await pageJsonQuery(filter, position)(this.db, {
      ...filter,
      atMicros: position?.atMicros,
      positionId: position?.id,
      limit: limit + 1,
      withAdminAddresses,
    });
    const last = rows.length > limit ? rows[limit - 1] : undefined;
    return {
      items: rows
        .slice(0, limit)
        .map((row) => row.json)
        .join(','),
      next: last ? { atMicros: last.at_micros, id: last.id } : null,
    };
  }
}

/** Whether an entry was made by an admin impersonating its actor (`toEntry`'s `impersonated`). */
const impersonated = sql`(l.acting_admin_id is not null and l.acting_admin_id is distinct from l.actor_id)`;

/** An entry's time in microseconds since the epoch, exact (a cursor's first half). */
const atMicros = sql`cast(cast(extract(epoch from l.at) * 1000000 as bigint) as text)`;

/** The entries the filter selects after `position`, from `audit_log as l` (unordered, nothing selected). */
function filteredEntries(db: Db, filter: AuditRowFilter, position: AuditPosition | null) {
  let query = db.selectFrom('audit_log as l');
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
  return query;
}

/** A page query's values (a type, not an interface: `precompiled` takes a record). */
type PageJsonValues = { [K in keyof AuditRowFilter]: AuditRowFilter[K] } & {
  atMicros: string | undefined;
  positionId: string | undefined;
  limit: number;
  withAdminAddresses: boolean;
};

type PageJsonQuery = (db: Db, values: PageJsonValues) => Promise<{ id: string; at_micros: string; json: string }[]>;

/** The page query of each combination of filters (and whether a position is given), built once. */
const pageJsonQueries = new Map<string, PageJsonQuery>();

/**
 * The page query for the filters `filter` uses (their values are the run's): precompiled, so on PostgreSQL
 * each connection parses it once, not on every page (parsing and planning were most of the database's work
 * for a page). The page's JSON is written by the database: no time or jsonb is parsed and formatted again
 * and no object built per entry in the API (those were most of its work for a page). Members in the order
 * the compiled serializer writes them, strings escaped by `to_json` as JSON.stringify escapes them, times as
 * `Date#toISOString` writes them (milliseconds truncated as a JavaScript Date holds them); `details` is the
 * jsonb's own text (`{"key": value}`, a space after each colon and comma). Plain concatenation rather than
 * json_build_object or row_to_json subqueries, which cost more to plan. A test checks the answer against
 * `page`'s rows mapped as the CSV export maps them.
 */
function pageJsonQuery(filter: AuditRowFilter, position: AuditPosition | null): PageJsonQuery {
  const uses = {
    actorId: filter.actorId !== null,
    targetType: filter.targetType !== undefined,
    action: filter.action !== undefined,
    from: filter.from !== undefined,
    to: filter.to !== undefined,
    position: position !== null,
  };
  const key = Object.values(uses)
    .map((used) => (used ? '1' : '0'))
    .join('');
  const built = pageJsonQueries.get(key);
  if (built) return built;
  const query: PageJsonQuery = precompiled((db, v: PageJsonValues) => {
    const placed: AuditRowFilter = {
      actorId: uses.actorId ? v.actorId : null,
      targetType: uses.targetType ? v.targetType : undefined,
      action: uses.action ? v.action : undefined,
      from: uses.from ? v.from : undefined,
      to: uses.to ? v.to : undefined,
    };
    const after = uses.position ? { atMicros: v.atMicros as string, id: v.positionId as string } : null;
    const ref = (id: string, username: string) =>
      sql`case when ${sql.ref(id)} is null then 'null'
                 else '{"id":"' || ${sql.ref(id)} || '","username":' || coalesce(to_json(${sql.ref(username)})::text, 'null') || '}'
            end`;
    return filteredEntries(db, placed, after)
      .leftJoin('accounts as actor', 'actor.id', 'l.actor_id')
      .leftJoin('accounts as admin', 'admin.id', 'l.acting_admin_id')
      .select([
        sql<string>`cast(l.id as text)`.as('id'),
        sql<string>`${atMicros}`.as('at_micros'),
        sql<string>`'{"id":"' || l.id || '","at":"' || to_char(l.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            || '","actor":' || ${ref('l.actor_id', 'actor.username')}
            || ',"actingAdmin":' || ${ref('l.acting_admin_id', 'admin.username')}
            || ',"impersonated":' || case when ${impersonated} then 'true' else 'false' end
            || ',"action":' || to_json(l.action)::text
            || ',"resourceType":' || coalesce(to_json(l.target_type)::text, 'null')
            || ',"resourceId":' || coalesce(to_json(l.target_id)::text, 'null')
            || ',"sourceAddress":' || case when ${impersonated} and not cast(${v.withAdminAddresses} as boolean) then 'null'
                                           else coalesce(to_json(l.source_address)::text, 'null') end
            || ',"result":' || to_json(l.result)::text
            || ',"details":' || case when jsonb_typeof(l.details) = 'object' then l.details::text else '{}' end
            || '}'`.as('json'),
      ])
      .orderBy('l.at', 'desc')
      .orderBy('l.id', 'desc')
      .limit(v.limit);
  });
  pageJsonQueries.set(key, query);
  return query;
}
