import { rmSync } from 'node:fs';
import type { StreamInput, StreamOutput } from '@streamcloud/contract';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { type ControlPlane, connectControlPlane, type RunningNode, startMediaNode, waitFor } from './harness.js';

/**
 * What every media test file shares: the suite's control plane (global setup), a media node of the file's
 * own (started before its tests, removed after them with every node the file registered), and helpers to
 * drive streams over the API like an operator would.
 */
export interface MediaWorld {
  plane: ControlPlane;
  node: RunningNode;
}

export function useMediaNode(
  name = 'media-1',
  env: Record<string, string> = {},
  options: {
    /** The node's data directory, kept across its restarts (a kill, then `runMediaNode` on it) and removed after the file. */
    dataDir?: string;
    /** Where the node finds the control plane (e.g. through a proxy the test controls); the suite's own by default. */
    controlPlaneFor?: (url: string) => Promise<string>;
  } = {},
): MediaWorld {
  const world = {} as MediaWorld;
  beforeAll(async () => {
    const { url, token } = inject('controlPlane');
    world.plane = connectControlPlane(url, token);
    const nodeUrl = options.controlPlaneFor ? await options.controlPlaneFor(url) : url;
    const nodeEnv = options.dataDir ? { MEDIA_DATA_DIR: options.dataDir, ...env } : env;
    world.node = await startMediaNode({ ...world.plane, url: nodeUrl }, name, nodeEnv);
  }, 60_000);
  afterAll(async () => {
    await world.node?.stop();
    const nodes = (await world.plane.api<{ id: string }[]>('GET', '/nodes')).body;
    for (const node of nodes) await world.plane.api('DELETE', `/nodes/${node.id}`);
    if (options.dataDir) rmSync(options.dataDir, { recursive: true, force: true });
  });
  return world;
}

/** API helpers bound to the world's control plane. */
export function streamsOf(world: MediaWorld) {
  const api = <T>(method: string, path: string, body?: unknown) => world.plane.api<T>(method, path, body);
  const getStream = async (id: string) => (await api<StreamInput>('GET', `/inputs/${id}`)).body;
  /** A metric's samples of the stream in the last hour. */
  const metric = async (streamId: string, name: string): Promise<number[]> => {
    const from = new Date(Date.now() - 3600_000).toISOString();
    const to = new Date(Date.now() + 3600_000).toISOString();
    const answer = (
      await api<{ result: { values: [number, number][] }[] }>(
        'GET',
        `/statistics/stream/${streamId}/from/${from}/to/${to}?metrics=${name}`,
      )
    ).body;
    return answer.result.flatMap((series) => series.values.map(([, value]) => Number(value)));
  };
  /**
   * Bytes billed as uploaded by the stream's publishers, how many publish sessions were billed, bytes the
   * node sent out for it (viewers and relays), and the processing they were billed with.
   */
  const usage = async (
    streamId: string,
  ): Promise<{ upload: number; sessions: number; outgoing: number; processing: string[] }> => {
    const from = new Date(Date.now() - 3600_000).toISOString();
    const to = new Date(Date.now() + 3600_000).toISOString();
    const answer = (
      await api<{
        streams: { processing: string; incoming: { upload: number }[]; outgoing: { download: number }[] }[];
      }>('GET', `/statistics/stream/${streamId}/from/${from}/to/${to}`)
    ).body;
    const streams = answer.streams ?? [];
    return {
      upload: streams.flatMap((stream) => stream.incoming).reduce((sum, session) => sum + session.upload, 0),
      sessions: streams.flatMap((stream) => stream.incoming).length,
      outgoing: streams.flatMap((stream) => stream.outgoing).reduce((sum, node) => sum + node.download, 0),
      processing: streams.map((stream) => stream.processing),
    };
  };

  return {
    api,
    getStream,
    async createStream(body: Record<string, unknown>): Promise<StreamInput> {
      const created = await api<StreamInput>('POST', '/inputs', { output: { passthrough: true }, ...body });
      expect(created.status).toBe(201);
      return created.body;
    },
    /**
     * An adjustable-transcode RTMP stream whose ladder is small H.264 renditions (one 160x90 unless told, each
     * at 150 kb/s) with 48 kHz stereo AAC.
     */
    async createSmallLadderStream(sizes: Array<[number, number]> = [[160, 90]]): Promise<StreamInput> {
      const created = await api<StreamInput>('POST', '/inputs', { format: 'RTMP', output: { passthrough: false } });
      expect(created.status).toBe(201);
      const video = { bitrate: 150, speedPreset: 'ultrafast', tune: 'zerolatency', keyIntMax: 0 };
      const ladder = await api('PUT', `/inputs/${created.body.id}/output`, {
        tracks: [
          ...sizes.map(([width, height]) => ({ type: 'H264', width, height, framerate: 15, settings: video })),
          { type: 'AAC', rate: 48000, channels: 2, settings: { bitrate: 96 } },
        ],
      });
      expect(ladder.status).toBe(200);
      return created.body;
    },
    async createOutput(streamId: string, format: string, extra: Record<string, unknown> = {}): Promise<StreamOutput> {
      const created = await api<StreamOutput>('POST', '/outputs', { streamId, format, ...extra });
      expect(created.status).toBe(201);
      return created.body;
    },
    outputs: async (streamId: string) => (await api<StreamOutput[]>('GET', `/outputs?streamId=${streamId}`)).body,
    messages: async (id: string) => (await getStream(id)).statusMessages.map((message) => message.text),
    /** Waits for the stream's status. */
    status: (id: string, status: StreamInput['status'], timeoutMs = 8000) =>
      waitFor(
        () => getStream(id),
        (stream) => stream.status === status,
        timeoutMs,
        status,
      ),
    usage,
    /** Waits for the stream's billed upload to reach the bytes a counting relay saw, then checks it is within 1 %. */
    async expectUploadBilled(streamId: string, sent: number): Promise<void> {
      const billed = await waitFor(
        async () => (await usage(streamId)).upload,
        (value) => value >= sent * 0.99,
        8000,
        'the billed bytes',
      );
      expect(Math.abs(billed - sent) / sent).toBeLessThan(0.01);
    },
    /** The stream's latest snapshot image of a direction; null while it has none. */
    async snapshot(streamId: string, direction: 'incoming' | 'outgoing'): Promise<Buffer | null> {
      const response = await fetch(`${world.plane.url}/api/v1/snapshots/stream/${streamId}/${direction}/image`, {
        headers: { authorization: `Bearer ${world.plane.token}` },
      });
      return response.status === 200 ? Buffer.from(await response.arrayBuffer()) : null;
    },
    /**
     * Waits for the stream's push to be reported with packets received and a round-trip time, and answers
     * the samples of every packet metric and the RTT.
     */
    async transportMetrics(streamId: string, timeoutMs: number) {
      const names = ['IncomingPacketsSent', 'IncomingPacketsLost', 'IncomingPacketsRetrans', 'IncomingPacketsDropped'];
      const [sent = [], lost = [], retransmitted = [], dropped = [], rtt = []] = await waitFor(
        () => Promise.all([...names, 'IncomingRTT'].map((name) => metric(streamId, name))),
        ([packets = [], , , , times = []]) => packets.some((value) => value > 0) && times.length > 0,
        timeoutMs,
        'packets and round-trip time of the push',
      );
      return { sent, lost, retransmitted, dropped, rtt };
    },
    metric,
  };
}

/** The push URL the console shows for a stream. */
export const uriOf = (stream: StreamInput) => {
  const connection = stream.connection as { uri?: string; signallingUri?: string } | null;
  return connection?.uri ?? connection?.signallingUri ?? '';
};

/**
 * What a test of nginx-rtmp's MPEG-TS playlists asks of its HLS output: Standard latency (a new HLS output is Low
 * latency unless told, issue 36).
 */
export const STANDARD_HLS = { hlsLatency: 'Standard' } as const;
/** The fields an output of `format` is created with in a test of the TS playlists: Standard latency for HLS. */
export const standardIfHls = (format: string) => (format === 'HLS' ? STANDARD_HLS : {});

/** The playlist URL of a new viewer session of an HLS output: where the node redirects its address (a session id). */
export async function openHlsSession(output: StreamOutput): Promise<URL> {
  const uri = output.connection?.uri ?? '';
  const first = await fetch(uri, { redirect: 'manual' });
  if (first.status !== 302) throw new Error(`opening ${uri}: ${first.status} ${await first.text()}`);
  return new URL(first.headers.get('location') ?? '', uri);
}
