import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ControlPlane, RunningNode } from '../harness.js';
import { freePort, runMediaNode, waitFor } from '../harness.js';
import type { RtmpViewer } from './rtmp-viewer.js';
import { startViewerPair } from './viewer-pair.js';

/**
 * The chaos run's edge: a second node in an Outgoing group, an HLS output of one stream placed on it (the edge
 * pulls from the origin while it has viewers), and a viewer polling that output's playlist and fetching each
 * new segment, as a player does. What must hold: after each fault the edge's viewer gets new segments again.
 */
export interface EdgeWorld {
  node: RunningNode;
  /** Waits until the viewer got a segment it had not seen, after `since`; answers how long from `since` the first came. */
  playing(since: number, what: string, timeoutMs: number): Promise<number>;
  /** Segments the viewer fetched so far. */
  readonly segments: number;
  /**
   * Bytes the edge's viewers exchanged with it (the billing check's reference): the HLS viewer's playlists and
   * segments answered 200 (the bodies: a redirect or a refusal is not billed), and the RTMP viewer's bytes both ways
   * through a counting relay in front of the edge's RTMP port, of its plays that got media (`RtmpViewer.billable`).
   */
  bytes(): number;
  /** A viewer of an RTMP output of the same stream on the edge. */
  rtmp: RtmpViewer;
  /** What the viewer saw after `since`, as changes ("+1.2 s playlist 200; +1.3 s segment 404"), for a slow recovery. */
  sawSince(since: number): string;
  kill(): Promise<void>;
  start(): Promise<void>;
  /** Stops its viewers (their counts final), the edge left running to report their last bytes. */
  stopViewers(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `ownerId`: the account whose viewers the edge serves (its Outgoing group is that account's, so another account's
 * streams keep their viewers on their ingest node: the run's origin viewers).
 */
export async function startEdgeWorld(plane: ControlPlane, streamId: string, ownerId: string): Promise<EdgeWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'streamcloud-chaos-edge-'));
  const port = await freePort();
  const created = await plane.api<{ id: string; token: string }>('POST', '/nodes', {
    name: 'chaos-edge',
    connection: { protocol: 'HTTP', hostname: '127.0.0.1', port },
    enabled: true,
    opened: true,
  });
  if (created.status !== 201) throw new Error(`edge node: ${created.status}`);
  const spec = {
    id: created.body.id,
    name: 'chaos-edge',
    token: created.body.token,
    port,
    rtmpPort: await freePort(),
    srtPort: await freePort(),
    rtspPort: await freePort(),
  };
  const run = () => runMediaNode(plane.url, spec, { MEDIA_DATA_DIR: dataDir, EDGE_IDLE_MS: '3000' });
  let node = await run();
  const group = await plane.api<{ id: string }>('POST', '/node-groups', {
    name: 'chaos edges',
    assignment: 'Outgoing',
    ownerId,
  });
  if (group.status !== 201) throw new Error(`edge group: ${group.status}`);
  await plane.api('PUT', `/node-groups/${group.body.id}/node/${spec.id}`);
  // Outputs go to a node that reports: before its first report the edge is passed over (on a loaded full run the
  // edge's output once went to the origin).
  await waitFor(
    () => plane.api<{ load: unknown }>('GET', `/nodes/${spec.id}`),
    (answer) => answer.body?.load != null,
    30_000,
    'the edge reporting',
  );
  // Standard HLS (for players without LL-HLS); the full run's LL-HLS viewer watches a Low output of the same stream
  // (workload.ts).
  const viewers = await startViewerPair(plane, streamId, spec, 'the edge');
  return {
    get node() {
      return node;
    },
    get segments() {
      return viewers.hls.segments;
    },
    rtmp: viewers.rtmp,
    bytes: () => viewers.bytes(),
    sawSince: (since) => viewers.hls.sawSince(since),
    playing: (since, what, timeoutMs) => viewers.hls.playing(since, what, timeoutMs),
    async kill() {
      await node.kill();
    },
    async start() {
      node = await run();
    },
    stopViewers: () => viewers.stop(),
    async close() {
      await viewers.stop();
      await node.stop();
      await plane.api('DELETE', `/node-groups/${group.body.id}`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
