// Issue 8: the media node under 1, 5 and 20 simultaneous RTMP pushes of a 2 Mbps test pattern on
// loopback. Per push: publish → Ingestion (as the API shows it), → first snapshot, → first HLS
// fragment; and the media node's CPU (its whole process tree: node, nginx, snapshot ffmpegs) per
// ingested stream without transcoding, over a 10 s window once every push is live.
import { createConnection, createServer } from 'node:net';
import { snapshotRoutes, streamRoutes } from '@streamcloud/contract';
import { apiClient, printTable } from './lib.mjs';
import { makeClip, pushClip, sleep, treeCpuSeconds, withNodeWorld } from './media-lib.mjs';

const COUNTS = (process.env.BENCH_MEDIA_COUNTS ?? '1,5,20').split(',').map(Number);
const CPU_WINDOW_MS = Number(process.env.BENCH_MEDIA_CPU_WINDOW_MS ?? 10_000);

/** A TCP relay in front of the node's RTMP port that notes when the publisher's first byte passes. */
async function firstByteRelay(target) {
  const url = new URL(target);
  const upstreamPort = Number(url.port);
  const state = { firstByteAt: null };
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: upstreamPort });
    client.once('data', () => {
      state.firstByteAt ??= Date.now();
    });
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url.port = String(server.address().port);
  return { url: url.toString(), state, close: () => server.close() };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : Number.NaN;
};
const max = (values) => (values.length ? Math.max(...values) : Number.NaN);

async function round(base, token, nodePid, clip, count) {
  const api = apiClient(base, token);
  const streams = [];
  for (let i = 0; i < count; i++) {
    const stream = await api.call(streamRoutes.create, {
      body: { format: 'RTMP', output: { passthrough: true }, caption: `bench ${count}/${i}` },
    });
    const hls = await api.call(streamRoutes.createOutput, {
      body: { streamId: stream.id, format: 'HLS', hlsLatency: 'Standard' },
    });
    await api.call(snapshotRoutes.update, {
      params: { streamId: stream.id, direction: 'incoming' },
      body: { format: 'JPEG', quality: 'Low', interval: 5 },
    });
    const relay = await firstByteRelay(stream.connection.uri);
    streams.push({ stream, relay, hls: hls.connection.uri, ingestion: null, snapshot: null, fragment: null });
  }
  // Times count from the publisher's first byte (ffmpeg's own start-up is not the node's).
  const pushes = streams.map((entry) => pushClip(clip, entry.relay.url));
  const deadline = Date.now() + 60_000;
  while (
    Date.now() < deadline &&
    streams.some((entry) => entry.ingestion === null || entry.snapshot === null || entry.fragment === null)
  ) {
    const list = await api.call(streamRoutes.list, { query: { limit: 200 } });
    const status = new Map(list.map((summary) => [summary.id, summary.status]));
    await Promise.all(
      streams.map(async (entry) => {
        const start = entry.relay.state.firstByteAt;
        if (start === null) return;
        if (entry.ingestion === null && status.get(entry.stream.id) === 'Ingestion')
          entry.ingestion = Date.now() - start;
        if (entry.snapshot === null) {
          // No snapshot yet answers 404: polled until there is one.
          const image = await api
            .blob(snapshotRoutes.image, {
              params: { streamId: entry.stream.id, direction: 'incoming' },
            })
            .catch(() => null);
          if (image) entry.snapshot = Date.now() - start;
        }
        if (entry.fragment === null) {
          const playlist = await fetch(entry.hls);
          const text = await playlist.text();
          if (playlist.status === 200 && /\.ts\b/.test(text)) entry.fragment = Date.now() - start;
        }
      }),
    );
    await sleep(100);
  }
  const cpuBefore = treeCpuSeconds(nodePid);
  const windowStart = Date.now();
  await sleep(CPU_WINDOW_MS);
  const cpuSeconds = treeCpuSeconds(nodePid) - cpuBefore;
  const cpuPercentOfCore = (cpuSeconds / ((Date.now() - windowStart) / 1000)) * 100;
  for (const push of pushes) push.kill('SIGKILL');
  for (const entry of streams) entry.relay.close();
  for (const entry of streams) await api.call(streamRoutes.delete, { params: { id: entry.stream.id } });
  const ms = (key) => streams.map((entry) => entry[key]).filter((value) => value !== null);
  return {
    pushes: count,
    'live (of pushes)': ms('ingestion').length,
    'to Ingestion ms (median / max)': `${median(ms('ingestion'))} / ${max(ms('ingestion'))}`,
    'to 1st snapshot ms (median / max)': `${median(ms('snapshot'))} / ${max(ms('snapshot'))}`,
    'to 1st HLS fragment ms (median / max)': `${median(ms('fragment'))} / ${max(ms('fragment'))}`,
    'node CPU, % of a core': cpuPercentOfCore.toFixed(1),
    'CPU per stream, % of a core': (cpuPercentOfCore / count).toFixed(2),
  };
}

export default async function mediaBench() {
  await withNodeWorld('media', async ({ dir, base, token, node }) => {
    const clip = makeClip(dir);
    const rows = [];
    for (const count of COUNTS) {
      rows.push(await round(base, token, node.pid, clip, count));
      await sleep(3000);
    }
    printTable(
      'Media node: RTMP pushes of a 2 Mbps test pattern (ffmpeg -re -c copy) on loopback; times from the publisher’s first byte, ' +
        'polled every ~100 ms through the API; CPU of the node process tree (passthrough: HLS packaging, snapshots every 5 s)',
      rows,
    );
  });
}
