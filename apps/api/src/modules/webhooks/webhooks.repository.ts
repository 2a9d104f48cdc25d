import type { WebhookDeliveryStatus } from '@streamcloud/contract';
import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { WebhookDeliveriesTable, WebhookSecretsTable, WebhookStreamPushesTable } from '../../db/schema.js';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type NewDelivery = Insertable<WebhookDeliveriesTable>;
export type SecretRow = Selectable<WebhookSecretsTable>;
export type StreamPushRow = Selectable<WebhookStreamPushesTable>;

/** A claimed delivery with what signing it needs: its scope's sealed secrets. */
export interface ClaimedDelivery {
  id: string;
  seq: number;
  account_id: string | null;
  resource_id: string | null;
  url: string;
  payload: string;
  retry_step: number;
  /** When this attempt was claimed: the log's last attempt, from which a retry is counted. */
  last_attempt_at: Date;
  secret: string | null;
  previous_secret: string | null;
  previous_expires_at: Date | null;
}

/** How an attempt ended, as the log records it. */
export interface AttemptResult {
  status: WebhookDeliveryStatus;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
  retryStep: number;
  at: Date;
}

export interface DeliveryFilter {
  /** undefined: every account; null: the platform's. */
  accountId?: string | null;
  streamId?: string;
  resourceId?: string;
  status?: WebhookDeliveryStatus;
}

/** The scope of an account's secret and deliveries; the platform's is 'platform'. */
export const scopeOf = (accountId: string | null) => accountId ?? 'platform';

const logColumns = [
  'id',
  'account_id',
  'type',
  'resource_type',
  'resource_id',
  'stream_id',
  'url',
  'occurred_at',
  'status',
  'attempts',
  'last_attempt_at',
  'last_status_code',
  'last_error',
  'next_attempt_at',
  'delivered_at',
] as const;
export type LoggedDelivery = Pick<DeliveryRow, (typeof logColumns)[number]>;

/** The outbox and delivery log, the signing secrets, and the pushes stream events remember. */
export class WebhooksRepository {
  constructor(readonly db: Db) {}

  /** Writes deliveries on `db`, which is the transaction of the change that causes them. */
  static async insert(db: Db, rows: NewDelivery[]): Promise<void> {
    if (rows.length === 0) return;
    await db.insertInto('webhook_deliveries').values(rows).execute();
  }

  /**
   * Takes up to `limit` due deliveries for this dispatcher: each is leased to it until `leaseUntil` (its
   * next_attempt_at), counted as attempted, and returned with its scope's secrets. Rows another
   * dispatcher is claiming at the same moment are skipped, so each is taken by one only; a resource's
   * event waits while an earlier one of the same resource is in flight, so receivers mostly get a
   * resource's events in order.
   */
  async claimDue(now: Date, leaseUntil: Date, claimedBy: string, limit: number): Promise<ClaimedDelivery[]> {
    const result = await sql<ClaimedDelivery>`
      with due as (
        select id from webhook_deliveries d
        where status = 'Pending' and next_attempt_at <= ${now}
          -- a resource's events go one at a time: none while an earlier one of it is in flight
          and not exists (
            select 1 from webhook_deliveries e
            where e.resource_id = d.resource_id and e.seq < d.seq and e.status = 'Pending' and e.claimed_by is not null
          )
        order by next_attempt_at, seq
        limit ${limit}
        for update skip locked
      ), claimed as (
        update webhook_deliveries d
        set claimed_by = ${claimedBy}, next_attempt_at = ${leaseUntil}, attempts = d.attempts + 1,
            last_attempt_at = ${now}
        from due where d.id = due.id
        returning d.id, d.seq, d.account_id, d.resource_id, d.url, d.payload, d.retry_step, d.last_attempt_at
      )
      select c.*, s.secret, s.previous_secret, s.previous_expires_at
      from claimed c left join webhook_secrets s on s.scope = coalesce(c.account_id::text, 'platform')
      order by c.seq`.execute(this.db);
    return result.rows;
  }

  /** Records an attempt's end, unless the delivery was taken from this dispatcher meanwhile (a Redeliver). */
  async recordAttempt(id: string, claimedBy: string, result: AttemptResult): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({
        status: result.status,
        claimed_by: null,
        next_attempt_at: result.nextAttemptAt,
        retry_step: result.retryStep,
        last_status_code: result.statusCode,
        last_error: result.error,
        ...(result.status === 'Delivered' ? { delivered_at: result.at } : {}),
      })
      .where('id', '=', id)
      .where('claimed_by', '=', claimedBy)
      .execute();
  }

  /** When the next pending delivery is due (leases included), or null when none is pending. */
  async nextDueAt(): Promise<Date | null> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.min('next_attempt_at').as('due'))
      .where('status', '=', 'Pending')
      .executeTakeFirst();
    return (row?.due as Date | null | undefined) ?? null;
  }

  /** Makes every leased delivery due now: on an embedded database no other process can hold a lease. */
  async releaseAllClaims(now: Date): Promise<number> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ claimed_by: null, next_attempt_at: now })
      .where('status', '=', 'Pending')
      .where('claimed_by', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Drops finished deliveries that happened before `before`. */
  async deleteFinishedBefore(before: Date): Promise<number> {
    const result = await this.db
      .deleteFrom('webhook_deliveries')
      .where('occurred_at', '<', before)
      .where('status', '<>', 'Pending')
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async list(filter: DeliveryFilter, offset: number, limit: number) {
    let rows = this.db.selectFrom('webhook_deliveries').select(logColumns);
    let count = this.db.selectFrom('webhook_deliveries').select((eb) => eb.fn.countAll<number>().as('count'));
    const conditions: Array<[keyof DeliveryRow, unknown]> = [];
    if (filter.streamId) conditions.push(['stream_id', filter.streamId]);
    if (filter.resourceId) conditions.push(['resource_id', filter.resourceId]);
    if (filter.status) conditions.push(['status', filter.status]);
    for (const [column, value] of conditions) {
      rows = rows.where(column, '=', value as never);
      count = count.where(column, '=', value as never);
    }
    if (filter.accountId !== undefined) {
      rows = rows.where('account_id', filter.accountId === null ? 'is' : '=', filter.accountId);
      count = count.where('account_id', filter.accountId === null ? 'is' : '=', filter.accountId);
    }
    const [items, total] = await Promise.all([
      rows.orderBy('seq', 'desc').offset(offset).limit(limit).execute(),
      count.executeTakeFirstOrThrow(),
    ]);
    return { rows: items as LoggedDelivery[], total: Number(total.count) };
  }

  /** Whether deliveries of the stream or resource `id` belong to an account other than `accountId`. */
  async belongsToAnotherAccount(column: 'stream_id' | 'resource_id', id: string, accountId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where(column, '=', id)
      .where((eb) => eb.or([eb('account_id', '<>', accountId), eb('account_id', 'is', null)]))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async findById(id: string): Promise<DeliveryRow | null> {
    return (await this.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  /** Pending again and due now, with a fresh retry series; an attempt in flight loses its lease. Wakes the dispatchers. */
  async redeliver(id: string, now: Date): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'Pending', next_attempt_at: now, retry_step: 0, claimed_by: null })
        .where('id', '=', id)
        .execute();
      await sql`select pg_notify('webhook_deliveries', '')`.execute(trx);
    });
  }

  async accountExists(id: string): Promise<boolean> {
    return (await this.db.selectFrom('accounts').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  async findSecret(scope: string): Promise<SecretRow | null> {
    return (
      (await this.db.selectFrom('webhook_secrets').selectAll().where('scope', '=', scope).executeTakeFirst()) ?? null
    );
  }

  /** Stores a first secret for the scope unless one exists; answers the scope's row either way. */
  async insertSecretIfAbsent(row: SecretRow): Promise<SecretRow> {
    await this.db
      .insertInto('webhook_secrets')
      .values(row)
      .onConflict((conflict) => conflict.column('scope').doNothing())
      .execute();
    const stored = await this.findSecret(row.scope);
    if (!stored) throw new Error(`The signing secret of ${row.scope} was not stored`);
    return stored;
  }

  /** Replaces the secret; the current one becomes the previous one until `previousExpiresAt`. */
  async rotateSecret(scope: string, sealed: string, previousExpiresAt: Date, now: Date): Promise<SecretRow | null> {
    return (
      (await this.db
        .updateTable('webhook_secrets')
        .set((eb) => ({
          previous_secret: eb.ref('secret'),
          previous_expires_at: previousExpiresAt,
          secret: sealed,
          created_at: now,
        }))
        .where('scope', '=', scope)
        .returningAll()
        .executeTakeFirst()) ?? null
    );
  }

  /** Remembers the push a stream.ingestion announced (on the change's transaction `db`). */
  static async rememberPush(db: Db, push: StreamPushRow): Promise<void> {
    await db
      .insertInto('webhook_stream_pushes')
      .values(push)
      .onConflict((conflict) =>
        conflict.column('input_id').doUpdateSet({
          protocol: push.protocol,
          address: push.address,
          started_at: push.started_at,
        }),
      )
      .execute();
  }

  /** The push a stream.ingestion announced, forgotten as it is read. */
  static async takePush(db: Db, inputId: string): Promise<StreamPushRow | null> {
    return (
      (await db
        .deleteFrom('webhook_stream_pushes')
        .where('input_id', '=', inputId)
        .returningAll()
        .executeTakeFirst()) ?? null
    );
  }

  /** Seconds pushed and bytes received by a stream's incoming sessions that started at or after `since`. */
  static async pushedSince(db: Db, inputId: string, since: Date): Promise<{ duration: number; bytes: number }> {
    const row = await db
      .selectFrom('usage_hourly')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>('duration'), sql<number>`0`).as('duration'),
        eb.fn.coalesce(eb.fn.sum<number>('upload'), sql<number>`0`).as('bytes'),
      ])
      .where('stream_id', '=', inputId)
      .where('kind', '=', 'incoming')
      .where('started_at', '>=', since)
      .executeTakeFirst();
    return { duration: Number(row?.duration ?? 0), bytes: Number(row?.bytes ?? 0) };
  }
}
