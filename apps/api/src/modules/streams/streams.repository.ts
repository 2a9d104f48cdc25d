import type { LadderRendition, MediaPorts, StreamStatus } from '@streamcloud/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { nodeReportedSince, nodeSilentSince } from '../nodes/node-reports.repository.js';
import {
  addStatusMessages,
  assignedVersionColumns,
  listPage,
  listPageOfOwner,
  nodeHostsOf,
  STATUS_MESSAGES_KEPT,
  streamWithDetails,
  streamWithDetailsOfOwner,
} from './stream-reads.repository.js';
import type {
  AssignedVersions,
  CandidateNodeRow,
  InternodeSourceRow,
  NewStream,
  NodeHostRow,
  StatusMessageRow,
  StreamDescription,
  StreamOnNodeToLeave,
  StreamRow,
  TrackRow,
} from './streams.table.js';

const FOREIGN_KEY_VIOLATION = '23503';

/** The account a stream was to belong to does not exist: checked by the foreign key, so a concurrent delete is caught too. */
export class UnknownOwnerError extends Error {}

/** A new access token, and until when the one it replaces is still taken (null: not at all). */
export interface TokenRotation {
  token: string;
  previousExpiresAt: Date | null;
  at: Date;
}

/** What a rotation writes, on `inputs` and `outputs` alike: `access_token` on the right is the token replaced. */
export const rotationChanges = (rotation: TokenRotation) => ({
  access_token: rotation.token,
  previous_access_token: rotation.previousExpiresAt ? sql<string>`access_token` : null,
  previous_access_token_expires_at: rotation.previousExpiresAt,
  access_token_rotated_at: rotation.at,
});

/** Streams (table `inputs`), their messages, tracks and ingress names, and the nodes placement weighs. */
export class StreamsRepository {
  /** The connection it queries: a transaction's within a unit of work's `transaction`. */
  constructor(readonly db: Db) {}

  async describe(streamIds: string[]): Promise<StreamDescription[]> {
    if (streamIds.length === 0) return [];
    return this.db
      .selectFrom('inputs')
      .select(['id', 'owner_id as ownerId', 'format', 'name', 'caption'])
      .where('id', 'in', streamIds)
      .execute() as Promise<StreamDescription[]>;
  }

  /** Inserts a stream; throws `UnknownOwnerError` when its owner account does not exist (any more). */
  async insert(stream: NewStream): Promise<void> {
    try {
      await this.db
        .insertInto('inputs')
        .values({ ...stream, parameters: JSON.stringify(stream.parameters), output: JSON.stringify(stream.output) })
        .execute();
    } catch (error) {
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code === FOREIGN_KEY_VIOLATION && constraint === 'inputs_owner_id_fkey') throw new UnknownOwnerError();
      throw error;
    }
  }

  async findById(id: string): Promise<StreamRow | null> {
    return (
      ((await this.db.selectFrom('inputs').selectAll().where('id', '=', id).executeTakeFirst()) as
        | StreamRow
        | undefined) ?? null
    );
  }

  /**
   * One stream with its latest messages and the node it is on, in one query; null when it does not exist
   * or belongs to another account than `ownerId` (null: any account's).
   */
  async findWithDetails(
    id: string,
    ownerId: string | null,
  ): Promise<{
    row: StreamRow;
    messages: StatusMessageRow[];
    node: NodeHostRow | null;
    source: InternodeSourceRow | null;
  } | null> {
    const [found] = ownerId
      ? await streamWithDetailsOfOwner(this.db, { id, ownerId })
      : await streamWithDetails(this.db, { id });
    if (!found) return null;
    const { status_messages, node_host, source, ...row } = found;
    return {
      row: row as StreamRow,
      // JSON carries the messages' times as text.
      messages: status_messages.map((message) => ({ ...message, at: new Date(message.at) })),
      node: node_host as NodeHostRow | null,
      source: source as InternodeSourceRow | null,
    };
  }

  /**
   * A stream by its name (matched case-insensitively, as nodes match pushed names), with the name of the node
   * it is on; null when there is none, or it belongs to another account than `ownerId` (null: any account's).
   */
  async findByName(name: string, ownerId: string | null): Promise<(StreamRow & { node_name: string | null }) | null> {
    let query = this.db
      .selectFrom('inputs as i')
      .leftJoin('nodes as n', 'n.id', 'i.node_id')
      .selectAll('i')
      .select('n.name as node_name')
      .where(sql<boolean>`lower(i.name) = lower(${name})`);
    if (ownerId) query = query.where('i.owner_id', '=', ownerId);
    return ((await query.executeTakeFirst()) as (StreamRow & { node_name: string | null }) | undefined) ?? null;
  }

  /** The sources of Internode streams a node ingests: each with its status and node (`GET /node/inputs`). */
  async sources(ids: string[]): Promise<Array<Pick<StreamRow, 'id' | 'name' | 'status' | 'node_id'>>> {
    if (ids.length === 0) return [];
    return this.db.selectFrom('inputs').select(['id', 'name', 'status', 'node_id']).where('id', 'in', ids).execute();
  }

  /**
   * One page in the list's order (format, then caption or id) as the JSON the API answers, and the total
   * (kept in input_counts), in one query: PostgreSQL writes the page's JSON, so no row is parsed, no
   * timestamp parsed and formatted again and no object built per row (those were most of a 200-row page).
   */
  async listJson(ownerId: string | null, offset: number, limit: number): Promise<{ json: string; total: number }> {
    const [row] = ownerId
      ? await listPageOfOwner(this.db, { ownerId, offset, limit })
      : await listPage(this.db, { offset, limit });
    return { json: row?.json ?? '[]', total: Number(row?.total ?? 0) };
  }

  async update(
    id: string,
    changes: Partial<
      Pick<StreamRow, 'caption' | 'status' | 'streamer_ip' | 'streamer_latitude' | 'streamer_longitude' | 'node_id'>
    >,
    now: Date,
  ): Promise<void> {
    await this.db
      .updateTable('inputs')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .execute();
  }

  /** Sets the input Idle if it is in one of `from`; answers whether it was. */
  async stop(id: string, from: readonly StreamStatus[], now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('inputs')
      .set({ status: 'Idle', updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('inputs').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Adds a message and keeps the stream's STATUS_MESSAGES_KEPT newest (the one rule: StreamStatesRepository's). */
  async addMessage(streamId: string, message: StatusMessageRow): Promise<void> {
    await addStatusMessages(this.db, [{ input_id: streamId, ...message }]);
  }

  async messages(streamId: string): Promise<StatusMessageRow[]> {
    return this.db
      .selectFrom('input_status_messages')
      .select(['at', 'level', 'text'])
      .where('input_id', '=', streamId)
      .orderBy('id', 'desc')
      .limit(STATUS_MESSAGES_KEPT)
      .execute();
  }

  async tracks(streamId: string, source: 'incoming' | 'outgoing'): Promise<TrackRow[]> {
    return this.db
      .selectFrom('input_tracks')
      .select(['idx', 'type', 'codec', 'width', 'height', 'bps', 'channels', 'rate'])
      .where('input_id', '=', streamId)
      .where('source', '=', source)
      .orderBy('idx')
      .execute();
  }

  /**
   * Enabled and opened nodes with how many streams each carries and the groups each is in; with `healthySince`,
   * only those not silent since then (a crashed node must not get streams that would never go live).
   */
  async candidateNodes(healthySince?: Date): Promise<CandidateNodeRow[]> {
    const nodes = this.nodeHosts()
      .select((eb) =>
        eb
          .selectFrom('inputs as i')
          .select((inner) => inner.fn.countAll<number>().as('count'))
          .whereRef('i.node_id', '=', 'n.id')
          .$narrowType<{ count: number }>()
          .as('stream_count'),
      )
      .where('n.enabled', '=', true)
      .where('n.opened', '=', true)
      .where('n.draining_since', 'is', null)
      .$narrowType<{ stream_count: number }>();
    return (healthySince ? nodes.where(sql<boolean>`not ${nodeSilentSince('n', healthySince)}`) : nodes).execute();
  }

  async nodeHost(nodeId: string): Promise<NodeHostRow | null> {
    return (await this.nodeHosts().where('n.id', '=', nodeId).executeTakeFirst()) ?? null;
  }

  /** Records the ports a node's media services listen on (the node reports them). */
  async setMediaPorts(nodeId: string, ports: MediaPorts, now: Date): Promise<void> {
    await this.db
      .insertInto('node_media_ports')
      .values({ node_id: nodeId, ports: JSON.stringify(ports), updated_at: now })
      .onConflict((oc) => oc.column('node_id').doUpdateSet({ ports: JSON.stringify(ports), updated_at: now }))
      .execute();
  }

  /** Streams in Ingestion on a node that has sent no report at all since `since` (its heartbeat is lost). */
  async ingestingOnSilentNodes(since: Date): Promise<{ id: string; node_name: string }[]> {
    return this.db
      .selectFrom('inputs as i')
      .innerJoin('nodes as n', 'n.id', 'i.node_id')
      .select(['i.id', 'n.name as node_name'])
      .where('i.status', '=', 'Ingestion')
      .where(({ not }) => not(nodeReportedSince('i.node_id', since)))
      .execute();
  }

  private nodeHosts() {
    return nodeHostsOf(this.db);
  }

  /**
   * Streams that are not live (Idle or Error) on a node being drained, or on a node a customer's group keeps
   * for itself, of another customer: the assignment job moves them off, oldest stream first.
   */
  async notLiveOnNodesToLeave(limit: number): Promise<StreamOnNodeToLeave[]> {
    return (await this.db
      .selectFrom('inputs as i')
      .innerJoin('nodes as n', 'n.id', 'i.node_id')
      .selectAll('i')
      .select('n.name as node_name')
      .select(
        sql<'draining' | 'reserved'>`case when n.draining_since is not null then 'draining' else 'reserved' end`.as(
          'leaving',
        ),
      )
      .where('i.status', 'in', ['Idle', 'Error'])
      .where(({ or, eb, exists, selectFrom }) =>
        or([
          eb('n.draining_since', 'is not', null),
          exists(
            selectFrom('node_group_resources as r')
              .innerJoin('node_groups as g', 'g.id', 'r.group_id')
              .select('r.id')
              .whereRef('r.node_id', '=', 'i.node_id')
              .where('g.owner_id', 'is not', null)
              .whereRef('g.owner_id', '<>', 'i.owner_id'),
          ),
        ]),
      )
      .orderBy('i.created_at')
      .limit(limit)
      .execute()) as StreamOnNodeToLeave[];
  }

  /**
   * Moves a stream from `fromNodeId` to `toNodeId` (null: no node, Pending) if it is still there and not
   * live: a push that started meanwhile keeps its node. Answers whether it moved.
   */
  async moveIfNotLive(id: string, fromNodeId: string, toNodeId: string | null, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('inputs')
      .set({ node_id: toNodeId, status: toNodeId ? 'Idle' : 'Pending', updated_at: now })
      .where('id', '=', id)
      .where('node_id', '=', fromNodeId)
      .where('status', 'in', ['Idle', 'Error'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The stream a GSLB ingress name (`as+<uuid>`, any case) belongs to. */
  async findByIngressName(name: string): Promise<StreamRow | null> {
    const row = await this.db
      .selectFrom('inputs as i')
      .innerJoin('ingress_endpoints as e', 'e.input_id', 'i.id')
      .selectAll('i')
      .where(sql<string>`lower(e.name)`, '=', name.toLowerCase())
      .executeTakeFirst();
    return (row as StreamRow | undefined) ?? null;
  }

  /**
   * Gives the stream to `nodeId` if it is still on `fromNodeId` (the node the caller read; null for none),
   * not live (Idle, Error or Pending) and not moved by a claim since `heldSince`; answers whether it did.
   * The state is checked by the write itself, a compare-and-set on the node: of concurrent claims, the
   * first write wins and the others find the stream moved (PostgreSQL re-reads the row a waiting UPDATE
   * matches), so they change nothing. Run it in a transaction: the claim's time is written with it.
   */
  async claimForNode(
    id: string,
    move: { fromNodeId: string | null; nodeId: string; now: Date; heldSince: Date },
  ): Promise<boolean> {
    const { fromNodeId, nodeId, now, heldSince } = move;
    const result = await this.db
      .updateTable('inputs')
      .set({ node_id: nodeId, status: 'Idle', updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', ['Idle', 'Error', 'Pending'])
      .where((eb) => (fromNodeId === null ? eb('node_id', 'is', null) : eb('node_id', '=', fromNodeId)))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('ingress_endpoints')
              .select('input_id')
              .where('input_id', '=', id)
              .where('claimed_at', '>', heldSince),
          ),
        ),
      )
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await this.db.updateTable('ingress_endpoints').set({ claimed_at: now }).where('input_id', '=', id).execute();
    return true;
  }

  /**
   * Replaces the access token of a stream that has one (not Public) by `rotation.token`; the one replaced stays
   * as the previous token until `rotation.previousExpiresAt` (null: dropped at once). One statement: concurrent
   * rotations queue on the row's lock and each replaces the token the one before wrote, so at most two are
   * ever valid. Answers whether the stream had a token to rotate.
   */
  async rotateAccessToken(id: string, rotation: TokenRotation): Promise<boolean> {
    const result = await this.db
      .updateTable('inputs')
      .set({ ...rotationChanges(rotation), updated_at: rotation.at })
      .where('id', '=', id)
      .where('access', '!=', 'Public')
      .where('access_token', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Streams waiting for a node, oldest first. */
  async unassigned(limit: number): Promise<StreamRow[]> {
    return (await this.db
      .selectFrom('inputs')
      .selectAll()
      .where('node_id', 'is', null)
      .orderBy('created_at')
      .limit(limit)
      .execute()) as StreamRow[];
  }

  /**
   * The streams `nodeId` ingests and those it is an edge of (see the service's `ofNode`), for the node-facing
   * API, each with its GSLB ingress name (null without one) and the versions of what the node runs for it.
   */
  async ofNode(
    nodeId: string,
  ): Promise<
    Array<StreamRow & { ingress_name: string | null; renditions: LadderRendition[] | null } & AssignedVersions>
  > {
    return (await this.db
      .selectFrom('inputs as i')
      .leftJoin('ingress_endpoints as e', 'e.input_id', 'i.id')
      .selectAll('i')
      .select('e.name as ingress_name')
      .select(assignedVersionColumns)
      // Its own streams, and the streams of which it serves outputs as an edge (pulling them from their node).
      .where((eb) =>
        eb.or([
          eb('i.node_id', '=', nodeId),
          eb.and([
            eb('i.node_id', 'is not', null),
            eb.exists(
              eb
                .selectFrom('outputs as o')
                .select('o.id')
                .whereRef('o.input_id', '=', 'i.id')
                .where('o.node_id', '=', nodeId),
            ),
          ]),
        ]),
      )
      .orderBy('i.id')
      .execute()) as Array<
      StreamRow & { ingress_name: string | null; renditions: LadderRendition[] | null } & AssignedVersions
    >;
  }

  async ingressName(streamId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('ingress_endpoints')
      .select('name')
      .where('input_id', '=', streamId)
      .executeTakeFirst();
    return row?.name ?? null;
  }

  /** False when the stream already has one. */
  async insertIngress(streamId: string, name: string): Promise<boolean> {
    const result = await this.db
      .insertInto('ingress_endpoints')
      .values({ input_id: streamId, name })
      .onConflict((oc) => oc.column('input_id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async setGslb(streamId: string, now: Date): Promise<void> {
    await this.db.updateTable('inputs').set({ gslb: true, updated_at: now }).where('id', '=', streamId).execute();
  }
}
