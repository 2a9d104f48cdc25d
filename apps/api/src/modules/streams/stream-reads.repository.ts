import { sql } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import type { Db } from '../../db/database.js';
import { precompiled } from '../../db/precompiled.js';
import type { NodeHostGroup, StatusMessageRow } from './streams.table.js';

// The streams repository's larger queries, built once: the list's page as JSON, a stream with its details, the
// node hosts they join, and the versions the node-facing list carries.

/** The md5 of the given columns of a stream's rows in `table` (ordered by `orderBy`); '' hashed when it has none. */
const digestOf = (table: string, columns: string[], orderBy = 'id') =>
  sql<string>`(select md5(coalesce(string_agg(${sql.raw(
    columns.map((column) => `coalesce(r.${column}::text, '')`).join(" || '|' || "),
  )}, ',' order by r.${sql.raw(orderBy)}), '')) from ${sql.table(table)} r where r.input_id = i.id)`;

/** Status messages kept per stream: the dashboard shows the recent ones. */
export const STATUS_MESSAGES_KEPT = 50;

/**
 * `outputModeOfName`'s rule (`/^in[+\s]/`) for PostgreSQL, whose `\s` depends on the locale: JavaScript's
 * `\s` (white space and line terminators) spelled out.
 */
export const ADJUSTABLE_NAME_PATTERN =
  '^in[+\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff]';

/**
 * A page of the stream list as the contract's `StreamInputSummary[]`, written by PostgreSQL: the members in
 * the order the compiled serializer writes them, times as `Date#toISOString` writes them (UTC, milliseconds
 * truncated as a JavaScript Date holds them). `row_to_json` and `array_to_json` write compact JSON with
 * strings escaped as JSON.stringify does; a test checks the bytes against the serializer.
 */
const listPageQuery = (db: Db, ownerId: string | null, offset: number, limit: number) => {
  const ordered = db
    .selectFrom('inputs')
    .select(['id', 'owner_id', 'caption', 'format', 'status', 'access', 'name', 'node_id', 'created_at'])
    .orderBy('format')
    .orderBy(sql`coalesce(lower(caption), id::text)`)
    .orderBy('id')
    .offset(offset)
    .limit(limit);
  // The members are computed over the page's rows only, above the offset: in the same select as the
  // offset, PostgreSQL would format every row it skips (a deep page's 10,000).
  const page = db
    .selectFrom((ownerId ? ordered.where('owner_id', '=', ownerId) : ordered).as('r'))
    .select([
      'id',
      'owner_id as ownerId',
      'caption',
      'format',
      'status',
      'access',
      sql<string>`case when name ~ ${ADJUSTABLE_NAME_PATTERN} then 'AdjustableTranscode' else 'Passthrough' end`.as(
        'outputMode',
      ),
      'name',
      'node_id as nodeId',
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`.as('createdAt'),
    ]);
  const counts = db.selectFrom('input_counts').select((eb) => eb.fn.sum<string | null>('count').as('count'));
  return db.selectNoFrom([
    // array(…) keeps the order of the page's rows (a subquery scan does not reorder them).
    sql<string>`array_to_json(array(select row_to_json(p) from (${page}) p))::text`.as('json'),
    (ownerId ? counts.where('owner_id', '=', ownerId) : counts).as('total'),
  ]);
};
export const listPage = precompiled((db, { offset, limit }: { offset: number; limit: number }) =>
  listPageQuery(db, null, offset, limit),
);
export const listPageOfOwner = precompiled(
  (db, { ownerId, offset, limit }: { ownerId: string; offset: number; limit: number }) =>
    listPageQuery(db, ownerId, offset, limit),
);

/**
 * Nodes as the mappers answer them. Without the count of the streams each carries: only placement needs
 * it (candidateNodes), and counting a node's 100,000 streams was most of a GET /inputs/{id}.
 */
export function nodeHostsOf(db: Db) {
  return db
    .selectFrom('nodes as n')
    .select([
      'n.id',
      'n.name',
      'n.protocol',
      'n.hostname',
      'n.port',
      (eb) =>
        eb.selectFrom('node_media_ports as m').select('m.ports').whereRef('m.node_id', '=', 'n.id').as('media_ports'),
      'n.location_code',
      'n.latitude',
      'n.longitude',
      (eb) =>
        jsonArrayFrom(
          eb
            .selectFrom('node_group_resources as r')
            .innerJoin('node_groups as g', 'g.id', 'r.group_id')
            .select(['g.id', 'g.name', 'g.assignment', 'g.owner_id'])
            .whereRef('r.node_id', '=', 'n.id')
            .orderBy('g.name')
            .orderBy('g.id'),
        ).as('groups'),
    ])
    .$narrowType<{ groups: NodeHostGroup[] }>();
}

/** A stream with its latest messages and its node, in one query (built once: see db/precompiled.ts). */
const withDetails = (db: Db, id: string) =>
  db
    .selectFrom('inputs as i')
    .selectAll('i')
    .select((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom('input_status_messages as m')
          .select(['m.at', 'm.level', 'm.text'])
          .whereRef('m.input_id', '=', 'i.id')
          .orderBy('m.id', 'desc')
          .limit(STATUS_MESSAGES_KEPT),
      ).as('status_messages'),
      jsonObjectFrom(nodeHostsOf(db).where('n.id', '=', eb.ref('i.node_id'))).as('node_host'),
      jsonObjectFrom(
        eb
          .selectFrom('inputs as s')
          .select(['s.id', 's.name'])
          .select((source) =>
            jsonObjectFrom(nodeHostsOf(db).where('n.id', '=', source.ref('s.node_id'))).as('node_host'),
          )
          .whereRef('s.id', '=', 'i.source_input_id'),
      ).as('source'),
    ])
    .where('i.id', '=', id);
export const streamWithDetails = precompiled((db, { id }: { id: string }) => withDetails(db, id));
/** The same, when the reader's access is limited to one owner's streams. */
export const streamWithDetailsOfOwner = precompiled((db, { id, ownerId }: { id: string; ownerId: string }) =>
  withDetails(db, id).where('i.owner_id', '=', ownerId),
);

/**
 * The versions of what a node runs for a stream (`inputs as i`): an md5 of the columns a node acts on (not of what
 * nodes report back, such as a recording's progress), so a version changes exactly when the node must re-read.
 */
export const assignedVersionColumns = [
  sql<string>`md5(i.output::text || coalesce((select o.updated_at::text from input_overlays o where o.input_id = i.id), ''))`.as(
    'config_version',
  ),
  digestOf('snapshot_settings', ['direction', 'format', 'quality', 'interval'], 'direction').as('snapshots_version'),
  digestOf('recordings', [
    'id',
    'storage_id',
    'file_name',
    'file_format',
    'autostart',
    'capture',
    'state',
    'stop_requested_at',
  ]).as('recordings_version'),
  digestOf('relays', ['id', 'format', 'autostart', 'capture', 'output', 'key_enc', 'state', 'stop_requested_at']).as(
    'relays_version',
  ),
  digestOf('fallbacks', ['id', 'type', 'resources']).as('fallbacks_version'),
  digestOf('outputs', [
    'id',
    'name',
    'format',
    'access',
    'hls_latency',
    'dvr_window_minutes',
    'access_token',
    'sessions_cleared_at',
    'node_id',
  ]).as('outputs_version'),
];

/**
 * Adds status messages (in this order) and keeps each of their streams' STATUS_MESSAGES_KEPT newest: one insert and
 * one delete however many streams (a report batch's, or one stream's own message: StreamsRepository.addMessage).
 */
export async function addStatusMessages(
  db: Db,
  messages: ReadonlyArray<StatusMessageRow & { input_id: string }>,
): Promise<void> {
  if (messages.length === 0) return;
  await db
    .insertInto('input_status_messages')
    .values([...messages])
    .execute();
  const streamIds = [...new Set(messages.map((message) => message.input_id))];
  const ranked = db
    .selectFrom('input_status_messages')
    .select(['id', sql<number>`row_number() over (partition by input_id order by id desc)`.as('rank')])
    .where('input_id', 'in', streamIds)
    .as('ranked');
  await db
    .deleteFrom('input_status_messages')
    .where('id', 'in', db.selectFrom(ranked).select('ranked.id').where('ranked.rank', '>', STATUS_MESSAGES_KEPT))
    .execute();
}
