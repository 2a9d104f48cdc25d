import type { RegionCode } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { Clock } from '../../lib/clock.js';
import { geoPoint } from '../../lib/geo.js';
import type { GeoLocator } from '../info/geo-locator.js';
import { ingestCandidates } from './ingest-placement.js';
import { candidateOf, chooseNode } from './node-assignment.js';
import type { StreamEvents } from './stream-events.js';
import type { NodeHostRow, StreamOnNodeToLeave, StreamRow } from './streams.table.js';

/** The message of a stream that waits for a node (Pending). */
export const NO_NODE_MESSAGE = 'No node is available: the stream will be assigned as soon as one is';

export interface StreamPlacementDeps {
  uow: Scope<'streams' | 'outputs' | 'events'>;
  geo: GeoLocator;
  clock: Clock;
  /** A node that sent no report for this long is gone: no new stream is placed on it. */
  nodeSilenceMs: number;
  events: StreamEvents;
}

/**
 * Where streams go: the nodes a new stream may use, where its publisher is, and the periodic placement of the
 * streams that wait for a node or must leave theirs (docs/decisions.md, "Node groups drive placement").
 */
export class StreamPlacement {
  constructor(private readonly deps: StreamPlacementDeps) {}

  /** The nodes new streams may go to: enabled, opened and not silent (docs/decisions.md, "Placement skips silent nodes"). */
  placeableNodes() {
    return this.deps.uow.streams.candidateNodes(new Date(this.deps.clock.now().getTime() - this.deps.nodeSilenceMs));
  }

  placeOf(
    ipAddress: string | null | undefined,
    geo: { latitude: number; longitude: number } | null,
  ): {
    geo: { latitude: number; longitude: number } | null;
    region: RegionCode | null;
  } {
    const located = ipAddress ? this.deps.geo.locate(ipAddress) : null;
    return { geo: geo ?? located?.geo ?? null, region: located?.region ?? null };
  }

  /**
   * Places streams by the placement rules: those that wait for a node go to the best enabled and opened
   * node, if any; those that are not live on a node being drained, or on one another customer's group keeps
   * for itself, move to the best node they may use, else wait for one (Pending). Answers how many streams it placed or moved.
   */
  async assignWaiting(limit: number): Promise<number> {
    const { uow } = this.deps;
    const [waiting, misplaced] = await Promise.all([
      uow.streams.unassigned(limit),
      uow.streams.notLiveOnNodesToLeave(limit),
    ]);
    if (waiting.length === 0 && misplaced.length === 0) return 0;
    const candidates = await this.placeableNodes();
    const counts = new Map(candidates.map((node) => [node.id, node.stream_count]));
    const placeOne = (stream: StreamRow) => {
      const chosen = chooseNode(
        ingestCandidates(candidates, stream.owner_id).map((candidate) =>
          candidateOf(candidate, counts.get(candidate.id) ?? 0),
        ),
        this.placeOf(stream.streamer_ip, geoPoint(stream.streamer_latitude, stream.streamer_longitude)),
      );
      if (chosen) counts.set(chosen.id, (counts.get(chosen.id) ?? 0) + 1);
      return chosen ? (candidates.find((candidate) => candidate.id === chosen.id) ?? null) : null;
    };
    let placed = 0;
    for (const stream of waiting) {
      const node = placeOne(stream);
      // Another stream of the batch may belong to a customer whose nodes are free.
      if (!node) continue;
      const now = this.deps.clock.now();
      await uow.transaction(async ({ streams }) => {
        await streams.update(
          stream.id,
          { node_id: node.id, ...(stream.status === 'Pending' ? { status: 'Idle' as const } : {}) },
          now,
        );
        await streams.addMessage(stream.id, { at: now, level: 'info', text: `Assigned to node ${node.name}` });
      });
      placed++;
    }
    for (const stream of misplaced) if (await this.moveOffNode(stream, placeOne(stream))) placed++;
    return placed;
  }

  /** Moves a stream that is not live off a node it must leave, to `node` or to no node (Pending). */
  private async moveOffNode(stream: StreamOnNodeToLeave, node: NodeHostRow | null) {
    // A drained node can still serve: with nowhere to go, its stream stays (Pending would only lose its URL).
    if (!node && stream.leaving === 'draining') return false;
    const now = this.deps.clock.now();
    const reason =
      stream.leaving === 'draining'
        ? `node ${stream.node_name} is being drained`
        : `node ${stream.node_name} is kept for another customer's streams`;
    return this.deps.uow.transaction(async (tx) => {
      const { streams } = tx;
      if (!stream.node_id || !(await streams.moveIfNotLive(stream.id, stream.node_id, node?.id ?? null, now))) {
        return false;
      }
      await streams.addMessage(
        stream.id,
        node
          ? { at: now, level: 'warning', text: `Moved to node ${node.name}: ${reason}` }
          : { at: now, level: 'warning', text: `Taken off: ${reason}. ${NO_NODE_MESSAGE}` },
      );
      const moved = await streams.findById(stream.id);
      if (moved) await this.deps.events.statusChanged(tx, moved, stream.status, { at: now });
      return true;
    });
  }
}
