import { randomUUID } from 'node:crypto';
import type { UsageReport } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { handleUsageReports } from './statistics-reports.js';

/**
 * The control plane as the "node" its own bytes are billed on: usage rows are per node, and a recording's or
 * clip's file is served by the API, not a media node. A fixed id (no media node has it: theirs are random
 * version 4 uuids), named in `usage_nodes` like a node, so the usage answer lists it beside the nodes.
 */
export const CONTROL_PLANE_NODE: NodeIdentity = { id: '00000000-0000-0000-0000-000000000001', name: 'Control plane' };

const HOUR_MS = 3_600_000;
/** How long counted bytes wait to be written: one write per this long at most, whatever the requests. */
export const SERVED_FLUSH_DELAY_MS = 5_000;
/** Streams (per hour) waiting at most: more are written at once, so the memory held is bounded. */
export const SERVED_MAX_PENDING = 10_000;

interface Pending {
  streamId: string;
  bytes: number;
  /** When the last of these bytes was counted: the hour they are billed to. */
  at: Date;
}

export interface ServedTrafficDeps {
  uow: Scope<'usage' | 'metrics' | 'streamCatalog'>;
  clock: Clock;
  log: { error(object: object, message: string): void };
}

/**
 * Bytes the control plane served of a stream's recordings and clips (docs/decisions.md, "Bytes served by the
 * control plane"), billed as the stream's outgoing traffic: counted in memory per stream and hour, written
 * at most every 5 s as usage reports of the control plane through the node reports' own handler — the same
 * records, rollups and identities (so a deleted stream's bytes stay in its account's bill, as a node's do).
 */
export class ServedTraffic {
  private pending = new Map<string, Pending>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ServedTrafficDeps) {}

  /** Counts bytes sent to a viewer of the stream's files. */
  count(streamId: string, bytes: number): void {
    if (bytes <= 0) return;
    const at = this.deps.clock.now();
    const key = `${streamId}|${Math.floor(at.getTime() / HOUR_MS)}`;
    const entry = this.pending.get(key);
    if (entry) {
      entry.bytes += bytes;
      entry.at = at;
    } else {
      this.pending.set(key, { streamId, bytes, at });
    }
    if (this.pending.size >= SERVED_MAX_PENDING) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), SERVED_FLUSH_DELAY_MS).unref();
  }

  /** Writes what is counted so far (tests, and the app's close); writes run one after another. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const entries = [...this.pending.values()];
    this.pending = new Map();
    if (entries.length === 0) return this.writing;
    this.writing = this.writing.then(() => this.write(entries));
    return this.writing;
  }

  private async write(entries: Pending[]): Promise<void> {
    const reports: UsageReport[] = entries.map(({ streamId, bytes, at }) => ({
      id: randomUUID(),
      kind: 'usage',
      streamId,
      at: at.toISOString(),
      // Download is what the node (here: the control plane) sent to the peer.
      outgoing: { duration: 0, upload: 0, download: bytes },
    }));
    try {
      await this.deps.uow.transaction((uow) =>
        handleUsageReports({ uow, node: CONTROL_PLANE_NODE, receivedAt: this.deps.clock.now() }, reports),
      );
    } catch (error) {
      // Not retried: a database that refuses this write refuses the nodes' reports too, and holding the bytes
      // for later would grow without bound while it does.
      const bytes = entries.reduce((sum, entry) => sum + entry.bytes, 0);
      this.deps.log.error({ err: error }, `Served bytes of recordings and clips not billed (${bytes} bytes)`);
    }
  }
}
