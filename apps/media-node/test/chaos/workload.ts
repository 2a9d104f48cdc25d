import type { StreamInput, StreamOutput } from '@streamcloud/contract';
import { type ControlPlane, connectControlPlane } from '../harness.js';
import type { Counted, NodeName } from './billing.js';
import { type EdgeWorld, startEdgeWorld } from './edge-viewer.js';
import { type HlsViewer, startHlsViewer } from './hls-viewer.js';
import { type RelayedWorld, startRelayedWorld } from './relayed.js';
import type { Watched } from './report.js';
import { startViewerPair, type ViewerPair } from './viewer-pair.js';
import { startWhipEncoder } from './whip-encoder.js';
import { type Encoder, startEncoder } from './world.js';

/**
 * The chaos run's pushes and what is done with them, by stream:
 * 0 RTMP (recorded to MKV; relayed too in the full run), 1 RTMP (recorded to MP4; HLS and RTMP viewers on the edge),
 * 2 SRT (relayed; a second account's, HLS and RTMP viewers on the origin). The full run adds 3 RTMP with a transcoding ladder (an HLS
 * viewer of its first rendition), 4 WHIP, 5 SRT, and an LL-HLS viewer of stream 1 on the edge.
 */
export const PUSH_FORMATS = { lean: ['RTMP', 'RTMP', 'SRT'], full: ['RTMP', 'RTMP', 'SRT', 'RTMP', 'WebRTC', 'SRT'] };
const LADDERED = 3;
/**
 * The push of a second account, which has no Outgoing group (the edge's is the run's account's): the control plane
 * places its viewer outputs on its ingest node, the origin (decisions.md, "Output assignment").
 */
export const ORIGIN_VIEWED = 2;

/** A second account (USER) of the control plane, signed in: it owns push ORIGIN_VIEWED. */
export async function secondAccount(plane: ControlPlane, username: string): Promise<ControlPlane> {
  const password = `${username}-password`;
  const created = await plane.api('POST', '/accounts', { username, password, role: 'USER' });
  if (created.status !== 201) throw new Error(`second account: ${created.status} ${JSON.stringify(created.body)}`);
  const login = await fetch(`${plane.url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (login.status !== 200) throw new Error(`second account's sign-in: ${login.status}`);
  const { token } = (await login.json()) as { token: string };
  return connectControlPlane(plane.url, token);
}
/** The run's ladder: one small rendition, cheap on two shared cores. */
const LADDER = {
  tracks: [
    {
      type: 'H264',
      width: 160,
      height: 90,
      framerate: 10,
      settings: { bitrate: 150, speedPreset: 'ultrafast', tune: 'zerolatency', keyIntMax: 0 },
    },
    { type: 'AAC', rate: 48000, channels: 2, settings: { bitrate: 64 } },
  ],
};

/** Creates push `index` of the run (its ladder set before it goes live) and starts its encoder. */
export async function startPush(
  plane: ControlPlane,
  index: number,
  formats: string[],
  callbackUri: string,
): Promise<Encoder> {
  const format = formats[index] ?? 'RTMP';
  const created = await plane.api<StreamInput>('POST', '/inputs', {
    format,
    output: { passthrough: index !== LADDERED },
    caption: `chaos ${index + 1}`,
    callbackUri,
  });
  if (created.status !== 201) throw new Error(`push ${index + 1}: ${created.status} ${JSON.stringify(created.body)}`);
  if (index === LADDERED) {
    const ladder = await plane.api('PUT', `/inputs/${created.body.id}/output`, LADDER);
    if (ladder.status !== 200) throw new Error(`ladder: ${ladder.status} ${JSON.stringify(ladder.body)}`);
  }
  return format === 'WebRTC' ? startWhipEncoder(created.body) : startEncoder(created.body);
}

/** What the run watches besides the pushes, and what it counts of their outgoing traffic. */
export interface Workload {
  relays: RelayedWorld[];
  edge: EdgeWorld;
  /** Stream ORIGIN_VIEWED's viewers on the origin. */
  origin: ViewerPair;
  /** Checked after every fault, in this order (the report's columns). */
  watched: Watched[];
  /** The viewers' and relays' bytes, by stream (the pushes' are the encoders'). */
  counted: Counted[];
  /** "the relays' receivers took …": for the report. */
  totals(): string;
  /** Stops the viewers and the relays' receivers: their counts are final. */
  stopCounting(): Promise<void>;
  close(): Promise<void>;
}

export interface Bounds {
  /** A relay is Relaying again within this of the API being back. */
  relayMs: number;
  /** A viewer gets media again within this of the API being back. */
  viewerMs: number;
}

/**
 * Starts the relays, the edge and its viewers, the origin's viewers (of the second account's push, `origin` the node
 * it was placed on), and in the full run the ladder's viewer; each checked once.
 */
export async function startWorkload(
  plane: ControlPlane,
  encoders: Encoder[],
  full: boolean,
  bounds: Bounds,
  origin: { id: string; rtmpPort: number },
): Promise<Workload> {
  const streamOf = (index: number) => encoders[index]?.stream.id ?? '';
  const relayedStreams = full ? [2, 0] : [2];
  const relays: RelayedWorld[] = [];
  for (const index of relayedStreams) relays.push(await startRelayedWorld(plane, streamOf(index)));
  // The edge serves the run's account's viewers only (its Outgoing group is that account's).
  const self = await plane.api<{ id: string }>('GET', '/accounts/whoami');
  const edge = await startEdgeWorld(plane, streamOf(1), self.body.id);
  const originViewers = await startViewerPair(plane, streamOf(ORIGIN_VIEWED), origin, 'the origin');
  const counted: Counted[] = [
    ...relays.map((relay, at) => outgoing(streamOf(relayedStreams[at] ?? 0), 'origin', () => relay.bytes())),
    outgoing(streamOf(1), 'edge', () => edge.bytes()),
    outgoing(streamOf(ORIGIN_VIEWED), 'origin', () => originViewers.bytes()),
  ];
  const watched: Watched[] = [
    ...relays.map((relay, at) => ({
      column: relays.length > 1 ? `relay ${at + 1} Relaying after` : 'relay Relaying after',
      back: (since: number, what: string) => relay.relaying(since, what, bounds.relayMs),
      story: (since: number) => relay.saidSince(since),
    })),
    {
      column: 'edge HLS viewer playing after',
      back: (since: number, what: string) => edge.playing(since, what, bounds.viewerMs),
      story: async (since: number) => edge.sawSince(since),
    },
    {
      column: 'edge RTMP viewer playing after',
      back: (since: number, what: string) => edge.rtmp.watching(since, what, bounds.viewerMs),
    },
    {
      column: 'origin HLS viewer playing after',
      back: (since: number, what: string) => originViewers.hls.playing(since, what, bounds.viewerMs),
      story: async (since: number) => originViewers.hls.sawSince(since),
    },
    {
      column: 'origin RTMP viewer playing after',
      back: (since: number, what: string) => originViewers.rtmp.watching(since, what, bounds.viewerMs),
    },
  ];
  const viewers: Array<HlsViewer & { where: string }> = [];
  if (full) {
    const extra = async (index: number, latency: 'Standard' | 'Low', column: string, boundMs: number) => {
      const { url, node } = await hlsOutput(plane, streamOf(index), latency, edge.node.id);
      const viewer = Object.assign(startHlsViewer(url, `the ${column.replace(/ playing after$/, '')}`), {
        where: `${latency} HLS of stream ${index + 1} on the ${node}`,
      });
      viewers.push(viewer);
      counted.push(outgoing(streamOf(index), node, () => viewer.bytes));
      watched.push({
        column,
        back: (since, what) => viewer.playing(since, what, boundMs),
        story: async (since) => viewer.sawSince(since),
      });
    };
    await extra(LADDERED, 'Standard', 'ladder HLS viewer playing after', bounds.viewerMs);
    // A Low latency output of stream 2, made while the edge's pull of it (for the viewers above) may still start.
    await extra(1, 'Low', 'edge LL-HLS viewer playing after', bounds.viewerMs);
  }
  const stopCounting = async () => {
    await Promise.all([edge.stopViewers(), originViewers.stop(), ...viewers.map((viewer) => viewer.stop())]);
    await Promise.all(relays.map((relay) => relay.close()));
  };
  // Each is working before the first fault.
  const started = Date.now();
  for (const each of watched)
    await each.back(started, 'the start').catch(async (error: unknown) => {
      throw new Error(`${String(error)}; it saw: ${(await each.story?.(started)) ?? '(no story)'}`);
    });
  return {
    relays,
    edge,
    origin: originViewers,
    watched,
    counted,
    totals: () =>
      `the relays' receivers took ${relays.map((relay) => relay.connections).join(' and ')} connections;` +
      ` the edge's HLS viewer fetched ${edge.segments} segments, its RTMP viewer ${(edge.rtmp.bytes / 1e6).toFixed(1)} MB in ${edge.rtmp.plays} plays;` +
      ` the origin's ${originViewers.hls.segments} segments, ${(originViewers.rtmp.bytes / 1e6).toFixed(1)} MB in ${originViewers.rtmp.plays} plays` +
      viewers.map((viewer) => `; the viewer of the ${viewer.where} fetched ${viewer.segments} segments`).join(''),
    stopCounting,
    async close() {
      await stopCounting();
      await edge.close();
    },
  };
}

/** A viewer's or relay's traffic of `streamId` on `node`: a kill loses at most the journal's 1 s of it. */
const outgoing = (streamId: string, node: NodeName, bytes: () => number): Counted => ({
  streamId,
  direction: 'outgoing',
  bytes,
  node,
  lossPerKillSeconds: 1,
});

/** An HLS output of the stream (on the edge, in its Outgoing group, or on the origin): its URL and its node. */
async function hlsOutput(
  plane: ControlPlane,
  streamId: string,
  hlsLatency: 'Standard' | 'Low',
  edgeId: string,
): Promise<{ url: string; node: NodeName }> {
  const output = await plane.api<StreamOutput>('POST', '/outputs', { streamId, format: 'HLS', hlsLatency });
  if (output.status !== 201) throw new Error(`${hlsLatency} HLS output: ${output.status}`);
  const url = `${output.body.connection?.uri}?token=${encodeURIComponent(output.body.viewer.accessToken ?? '')}`;
  return { url, node: output.body.node?.id === edgeId ? 'edge' : 'origin' };
}
