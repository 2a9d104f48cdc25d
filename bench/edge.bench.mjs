// Issue 20: origin and edges. One origin and two edge nodes (the streaming cloud's Outgoing group) on this
// machine, one 2 Mb/s RTMP push into the origin, BENCH_EDGE_VIEWERS HLS viewers per edge (ffmpeg reading the
// playlist, tracks copied). Reports the time to the first frame of a viewer on the origin and on a cold edge
// (its pull starts with it), the origin's CPU and egress with the viewers on the origin and with them on the
// edges, and the internode bytes against the viewers' bytes (goal: the origin sends the stream once per
// edge, not once per viewer).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeGroupRoutes, statisticsRoutes, streamRoutes } from '@streamcloud/contract';
import { apiClient, printTable, startApi } from './lib.mjs';
import { cpuPercentOver, makeClip, pushLiveStream, sleep, startNode } from './media-lib.mjs';

const VIEWERS_PER_EDGE = Number(process.env.BENCH_EDGE_VIEWERS ?? 4);
const WINDOW_MS = Number(process.env.BENCH_EDGE_WINDOW_MS ?? 10_000);

/** An HLS viewer: ffmpeg reading the playlist in real time, tracks copied, dropped. */
const hlsViewer = (url) =>
  spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', url, '-c', 'copy', '-f', 'null', '-'], {
    stdio: ['ignore', 'ignore', process.env.BENCH_MEDIA_DEBUG ? 'inherit' : 'ignore'],
  });

/** Milliseconds from asking for `url` to ffmpeg having decoded its first video frame. */
async function firstFrameMs(url) {
  const started = Date.now();
  const child = spawn(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-i', url, '-frames:v', '1', '-f', 'null', '-'],
    {
      stdio: 'ignore',
    },
  );
  const code = await new Promise((resolve) => child.once('exit', resolve));
  return code === 0 ? Date.now() - started : Number.NaN;
}

/** The stream's billed bytes per node and kind (upload + download) so far. */
async function bytesByNode(api, streamId) {
  const from = new Date(Date.now() - 3600_000).toISOString();
  const to = new Date(Date.now() + 3600_000).toISOString();
  const answer = await api.call(statisticsRoutes.streamUsage, { params: { streamId, from, to } });
  const sums = new Map();
  for (const stream of answer.streams ?? [])
    for (const kind of ['internode', 'outgoing'])
      for (const entry of stream[kind]) {
        const key = `${kind}:${entry.nodeId}`;
        sums.set(key, (sums.get(key) ?? 0) + entry.upload + entry.download);
      }
  return (kind, nodeId) => sums.get(`${kind}:${nodeId}`) ?? 0;
}

/** Viewers on `urls` for the window: the origin's CPU and every node's billed bytes over it. */
async function watch(api, streamId, origin, urls) {
  const viewers = urls.map(hlsViewer);
  try {
    await sleep(4000);
    const before = await bytesByNode(api, streamId);
    const cpu = await cpuPercentOver(origin.pid, WINDOW_MS);
    // Usage is reported every 5 s: wait one report past the window.
    await sleep(6000);
    const after = await bytesByNode(api, streamId);
    return { cpu, delta: (kind, nodeId) => after(kind, nodeId) - before(kind, nodeId) };
  } finally {
    for (const viewer of viewers) viewer.kill('SIGKILL');
  }
}

const mb = (bytes) => (bytes / 1e6).toFixed(1);

export default async function edgeBench() {
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-edge-bench-'));
  const clip = makeClip(dir);
  const server = await startApi('pglite');
  const nodes = [];
  let push;
  try {
    const token = await server.login();
    const api = apiClient(server.url, token);
    const origin = await startNode(server.url, token, join(dir, 'origin'), {}, 'origin');
    nodes.push(origin);
    const live = await pushLiveStream(server.url, token, clip, 'edge bench');
    push = live.push;
    const streamId = live.stream.id;
    const output = async () =>
      (await api.call(streamRoutes.createOutput, { body: { streamId, format: 'HLS', hlsLatency: 'Standard' } }))
        .connection.uri;

    const onOrigin = await output();
    const originFirstFrame = await firstFrameMs(onOrigin);
    const viewers = VIEWERS_PER_EDGE * 2;
    const alone = await watch(
      api,
      streamId,
      origin,
      Array.from({ length: viewers }, () => onOrigin),
    );

    // Two edges; each edge's outputs are created while it is the group's only node (ties go to either).
    const group = await api.call(nodeGroupRoutes.create, {
      body: { name: 'edges', assignment: 'Outgoing', ownerId: 'NONE' },
    });
    const edgeUrls = [];
    const coldFirstFrames = [];
    for (const name of ['edge-1', 'edge-2']) {
      const edge = await startNode(server.url, token, join(dir, name), { EDGE_IDLE_MS: '5000' }, name);
      nodes.push(edge);
      for (const other of nodes.slice(1, -1))
        await api.call(nodeGroupRoutes.detachNode, { params: { id: group.id, nodeId: other.id } });
      await api.call(nodeGroupRoutes.attachNode, { params: { id: group.id, nodeId: edge.id } });
      const urls = [];
      for (let i = 0; i < VIEWERS_PER_EDGE; i++) urls.push(await output());
      // The first frame on a cold edge: its pull from the origin starts with this viewer.
      coldFirstFrames.push(await firstFrameMs(urls[0]));
      edgeUrls.push(...urls);
    }
    const spread = await watch(api, streamId, origin, edgeUrls);
    const [edge1, edge2] = nodes.slice(1);
    const viewerBytes = spread.delta('outgoing', edge1.id) + spread.delta('outgoing', edge2.id);
    const internode = spread.delta('internode', origin.id);
    printTable(
      `Origin and edges: one 2 Mb/s push (640x360 30 fps, -c copy) into the origin, ${viewers} HLS viewers ` +
        `(ffmpeg -c copy) on the origin, then ${VIEWERS_PER_EDGE} on each of two edges; ${WINDOW_MS / 1000} s windows`,
      [
        {
          viewers: `${viewers} on the origin`,
          'first frame ms': `${originFirstFrame} (origin)`,
          'origin CPU, % of a core': alone.cpu.toFixed(1),
          'origin egress MB (viewers + internode)': mb(
            alone.delta('outgoing', origin.id) + alone.delta('internode', origin.id),
          ),
          'internode MB': '0',
          'viewer MB': mb(alone.delta('outgoing', origin.id)),
        },
        {
          viewers: `${VIEWERS_PER_EDGE} on each of 2 edges`,
          'first frame ms': `${coldFirstFrames.join(' / ')} (cold edges)`,
          'origin CPU, % of a core': spread.cpu.toFixed(1),
          'origin egress MB (viewers + internode)': mb(spread.delta('outgoing', origin.id) + internode),
          'internode MB': mb(internode),
          'viewer MB': mb(viewerBytes),
        },
      ],
    );
  } finally {
    push?.kill('SIGKILL');
    for (const node of nodes.reverse()) await node.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
