import { randomUUID } from 'node:crypto';
import type { Node, NodeDrain, NodeInput, NodeRefreshMode, NodeWithToken } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { geoPoint } from '../../lib/geo.js';
import { AuditTrail } from '../audit/audit-trail.js';
import type { NodeControlClient } from './node-control.client.js';
import { generateNodeToken, hashNodeToken, looksLikeNodeToken } from './node-token.js';
import type { LoadSampleRow, NodeFields, NodeRow } from './nodes.repository.js';

export interface NodesServiceDeps {
  uow: Scope<'nodes' | 'audit'>;
  control: NodeControlClient;
  clock: Clock;
  /** A node with no report for this long is silent (NODE_SILENCE_SECONDS). */
  silenceMs: number;
  /** Where a node that could not be told of a change is noted (`tellStreamsChanged`). */
  log?: { warn(message: string): void };
}

/** A node with no report for this long is silent, unless NODE_SILENCE_SECONDS says otherwise. */
export const DEFAULT_NODE_SILENCE_MS = 15_000;

/** Whether a node reports, from its latest load sample (the first thing a node sends, then every few seconds). */
export function reportingOf(load: LoadSampleRow | null, now: Date, silenceMs: number): Node['reporting'] {
  if (!load) return 'NeverReported';
  return now.getTime() - load.at.getTime() > silenceMs ? 'Silent' : 'Reporting';
}

export function toNode(
  row: NodeRow,
  load: LoadSampleRow | null,
  { now = new Date(), silenceMs = DEFAULT_NODE_SILENCE_MS }: { now?: Date; silenceMs?: number } = {},
): Node {
  return {
    id: row.id,
    name: row.name,
    connection: { protocol: row.protocol, hostname: row.hostname, port: row.port },
    settings: {
      bandwidthLimitMbps: row.bandwidth_limit_mbps,
      publicIPv4: row.public_ipv4,
      privateIPv4: row.private_ipv4,
    },
    location: {
      code: row.location_code,
      description: row.location_description,
      geo: geoPoint(row.latitude, row.longitude),
    },
    opened: row.opened,
    enabled: row.enabled,
    load: load
      ? {
          cpuPercent: load.cpu_percent,
          bandwidthMbps: load.bandwidth_mbps,
          sessions: load.sessions,
          health: load.health,
          reportedAt: load.at.toISOString(),
        }
      : null,
    reporting: reportingOf(load, now, silenceMs),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

function toFields(body: NodeInput): NodeFields {
  return {
    name: body.name,
    protocol: body.connection.protocol,
    hostname: body.connection.hostname,
    port: body.connection.port,
    bandwidth_limit_mbps: body.settings.bandwidthLimitMbps,
    public_ipv4: body.settings.publicIPv4 ?? null,
    private_ipv4: body.settings.privateIPv4 ?? null,
    location_code: body.location.code ?? null,
    location_description: body.location.description ?? null,
    latitude: body.location.geo?.latitude ?? null,
    longitude: body.location.geo?.longitude ?? null,
    opened: body.opened,
    enabled: body.enabled,
  };
}

/** Nodes are the platform's servers: admin only (the route guard answers USER with 403). */
export class NodesService {
  private readonly audit: AuditTrail;

  constructor(private readonly deps: NodesServiceDeps) {
    this.audit = new AuditTrail(deps.uow.audit, deps.clock, 'node');
  }

  private health() {
    return { now: this.deps.clock.now(), silenceMs: this.deps.silenceMs };
  }

  async list(): Promise<Node[]> {
    const [rows, loads] = await Promise.all([this.deps.uow.nodes.list(), this.deps.uow.nodes.latestLoads()]);
    return rows.map((row) => toNode(row, loads.get(row.id) ?? null, this.health()));
  }

  async get(id: string): Promise<Node> {
    const row = await this.find(id);
    return toNode(row, await this.deps.uow.nodes.latestLoad(id), this.health());
  }

  async create(auth: AuthContext, body: NodeInput): Promise<NodeWithToken> {
    const token = generateNodeToken();
    const row = await this.deps.uow.nodes.insert(
      { ...toFields(body), id: randomUUID(), token_hash: hashNodeToken(token) },
      this.deps.clock.now(),
    );
    await this.audit.record(auth, 'node.create', row.id, { name: row.name });
    return { ...toNode(row, null, this.health()), token };
  }

  async update(auth: AuthContext, id: string, body: NodeInput): Promise<Node> {
    const row = await this.deps.uow.nodes.update(id, toFields(body), this.deps.clock.now());
    if (!row) throw notFound('Node');
    await this.audit.record(auth, 'node.update', id, { name: row.name });
    return toNode(row, await this.deps.uow.nodes.latestLoad(id), this.health());
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const row = await this.find(id);
    if (!(await this.deps.uow.nodes.delete(id))) throw notFound('Node');
    await this.audit.record(auth, 'node.delete', id, { name: row.name });
  }

  /**
   * The media node `npm start` runs on this machine: the node with this name, hostname and port is
   * reused (enabled, opened, and given a fresh token, since no token is kept in clear), else registered.
   * Audited without an actor, like the first admin.
   */
  async ensureLocalNode(spec: { name: string; hostname: string; port: number }): Promise<NodeWithToken> {
    const token = generateNodeToken();
    const now = this.deps.clock.now();
    const existing = (await this.deps.uow.nodes.list()).find(
      (row) => row.name === spec.name && row.hostname === spec.hostname && row.port === spec.port,
    );
    const row = existing
      ? await this.deps.uow.nodes.update(
          existing.id,
          { token_hash: hashNodeToken(token), enabled: true, opened: true },
          now,
        )
      : await this.deps.uow.nodes.insert(
          {
            ...toFields({
              name: spec.name,
              connection: { protocol: 'HTTP', hostname: spec.hostname, port: spec.port },
              settings: { bandwidthLimitMbps: 1000 },
              location: {},
              opened: true,
              enabled: true,
            }),
            id: randomUUID(),
            token_hash: hashNodeToken(token),
          },
          now,
        );
    if (!row) throw notFound('Node');
    await this.deps.uow.audit.recordBy(
      null,
      {
        action: existing ? 'node.token.reissue' : 'node.create',
        targetType: 'node',
        targetId: row.id,
        details: { name: row.name, local: true },
      },
      now,
    );
    return { ...toNode(row, null, this.health()), token };
  }

  /** A new token; the old one stops working at once. */
  async reissueToken(auth: AuthContext, id: string): Promise<{ token: string }> {
    const token = generateNodeToken();
    const row = await this.deps.uow.nodes.update(id, { token_hash: hashNodeToken(token) }, this.deps.clock.now());
    if (!row) throw notFound('Node');
    await this.audit.record(auth, 'node.token.reissue', id, { name: row.name });
    return { token };
  }

  async refresh(
    auth: AuthContext,
    id: string,
    mode: NodeRefreshMode,
  ): Promise<{ mode: NodeRefreshMode; result: unknown }> {
    const row = await this.find(id);
    const result = await this.deps.control.refresh(row, mode);
    await this.audit.record(auth, 'node.refresh', id, { name: row.name, mode });
    return { mode, result };
  }

  /**
   * Tells every node serving the account's streams to read its assigned inputs now (refresh `Streams`): a
   * revoked playback key or token id, or an output's new policy, reaches them within a round trip rather
   * than at their next poll. Resolves once each node answered or failed; a node that did not answer still
   * reads them at its next poll (every 1.5 s), so a failure is only counted.
   */
  /** Whether the node serves a stream of the account, or an output of one (as an edge). */
  async servesAccount(nodeId: string, accountId: string): Promise<boolean> {
    return (await this.deps.uow.nodes.servingAccount(accountId)).some((node) => node.id === nodeId);
  }

  async pushStreamsOf(accountId: string): Promise<{ pushed: number; failed: number }> {
    return this.refreshStreams(await this.deps.uow.nodes.servingAccount(accountId));
  }

  async metadata(id: string): Promise<Record<string, unknown>> {
    return this.deps.control.metadata(await this.find(id));
  }

  /** The node's drain and what is left on it (docs/decisions.md, "Draining a node"). */
  async drain(id: string): Promise<NodeDrain> {
    return this.drainOf(await this.find(id));
  }

  /** Starts draining (asking again changes nothing, the first time stands); audited. */
  async startDrain(auth: AuthContext, id: string): Promise<NodeDrain> {
    const row = await this.deps.uow.nodes.setDraining(id, this.deps.clock.now());
    if (!row) throw notFound('Node');
    await this.audit.record(auth, 'node.drain.start', id, { name: row.name });
    return this.drainOf(row);
  }

  async stopDrain(auth: AuthContext, id: string): Promise<NodeDrain> {
    const row = await this.deps.uow.nodes.setDraining(id, null);
    if (!row) throw notFound('Node');
    await this.audit.record(auth, 'node.drain.stop', id, { name: row.name });
    return this.drainOf(row);
  }

  private async drainOf(row: NodeRow): Promise<NodeDrain> {
    const left = await this.deps.uow.nodes.drainLeft(row.id);
    const draining = row.draining_since !== null;
    return {
      draining,
      since: row.draining_since?.toISOString() ?? null,
      liveStreams: left.live,
      otherStreams: left.other,
      edgeOutputs: left.edgeOutputs,
      drained: draining && left.live + left.other + left.edgeOutputs === 0,
    };
  }

  /** The node a node token belongs to, or null. */
  async authenticateNode(token: string): Promise<NodeIdentity | null> {
    if (!looksLikeNodeToken(token)) return null;
    return this.deps.uow.nodes.findByTokenHash(hashNodeToken(token));
  }

  /** What a node sees of itself on the node-facing API. */
  whoami(node: NodeIdentity): Promise<Node> {
    return this.get(node.id);
  }

  /**
   * Tells a node at once that what it serves changed (a rotated token), with the refresh mode `Streams`: it
   * re-reads its inputs now rather than at its next poll (every 1.5 s). Answers whether it did; a node that
   * cannot be reached is noted, not an error (the poll brings the change anyway), and nothing secret is sent
   * or logged (the node reads the change from the API).
   */
  async tellStreamsChanged(id: string): Promise<boolean> {
    const row = await this.deps.uow.nodes.findById(id);
    if (!row) return false;
    return (await this.refreshStreams([row])).failed === 0;
  }

  /**
   * Tells a node at once that clips wait for it (refresh mode `Clips`, issue 35): it reads `GET /node/clips` now
   * rather than at its next read (every few seconds). Answers whether it did; a node that cannot be reached is
   * noted, not an error (its next read brings the clips anyway).
   */
  async tellClipsWaiting(id: string): Promise<boolean> {
    const row = await this.deps.uow.nodes.findById(id);
    if (!row) return false;
    return (await this.refreshStreams([row], 'Clips')).failed === 0;
  }

  /**
   * Asks each node to re-read its streams now (refresh `Streams`), all at once; one that cannot be reached is
   * noted and counted, never an error: its next poll brings the change anyway.
   */
  private async refreshStreams(
    nodes: NodeRow[],
    mode: 'Streams' | 'Clips' = 'Streams',
  ): Promise<{ pushed: number; failed: number }> {
    const results = await Promise.allSettled(
      nodes.map((node) =>
        this.deps.control.refresh(node, mode).catch((error: unknown) => {
          this.deps.log?.warn(`Node ${node.name} was not told of a change (${mode}): ${(error as Error).message}`);
          throw error;
        }),
      ),
    );
    const failed = results.filter((result) => result.status === 'rejected').length;
    return { pushed: results.length - failed, failed };
  }

  private async find(id: string): Promise<NodeRow> {
    const row = await this.deps.uow.nodes.findById(id);
    if (!row) throw notFound('Node');
    return row;
  }
}
