// Issue 17: relays of one live push (a 2 Mbps test pattern, pushed with -c copy) by a real media node on
// loopback, to an nginx-rtmp server (RTMP), UDP sockets (MPEG-TS) and an HTTP server (CMAF ingest) of the
// bench. Per round, N relays of one format run at once: the CPU they add to the node's process tree (the
// node, its nginx, the relays' ffmpegs) per relay, and how many of them keep up with the stream (each
// sending at least 90 % of what the push brings in, over the window).
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { relayRoutes } from '@streamcloud/contract';
import { freePort } from '../scripts/lib.mjs';
import { apiClient, printTable, startApi } from './lib.mjs';
import { cpuPercentOver, makeClip, pushLiveStream, sleep, startNode, treeCpuSeconds } from './media-lib.mjs';

const RTMP_COUNTS = (process.env.BENCH_RELAY_COUNTS ?? '1,10,25,50').split(',').map(Number);
const UDP_COUNT = Number(process.env.BENCH_RELAY_UDP ?? 25);
const CMAF_COUNT = Number(process.env.BENCH_RELAY_CMAF ?? 10);
const WINDOW_MS = Number(process.env.BENCH_RELAY_WINDOW_MS ?? 15_000);
/** The relays report their bytes every 5 s: a window runs from one report to one at least this later. */
const REPORT_MS = 5000;

/** An nginx-rtmp server taking any publish (the RTMP relays' destination). */
async function startRtmpSink(dir) {
  const port = await freePort();
  mkdirSync(join(dir, 'sink'), { recursive: true });
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const conf = join(dir, 'sink', 'nginx.conf');
  writeFileSync(
    conf,
    `load_module ${process.env.NGINX_RTMP_MODULE || '/usr/lib/nginx/modules/ngx_rtmp_module.so'};
${isRoot ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${join(dir, 'sink', 'nginx.pid')};
error_log ${join(dir, 'sink', 'error.log')} warn;
events { worker_connections 1024; }
rtmp { server { listen 127.0.0.1:${port}; chunk_size 4096; application live { live on; } } }
`,
  );
  const child = spawn(process.env.NGINX_PATH || '/usr/sbin/nginx', ['-c', conf, '-p', join(dir, 'sink')], {
    stdio: 'ignore',
  });
  await sleep(500);
  return { url: `rtmp://127.0.0.1:${port}/live`, stop: () => child.kill('SIGTERM') };
}

/** An HTTP server taking CMAF ingest (every request answered 200, bodies dropped). */
async function startHttpSink() {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200).end());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/ingest`,
    stop: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** UDP sockets dropping what they get. */
async function udpSinks(count) {
  const sockets = [];
  for (let i = 0; i < count; i++) {
    const socket = createSocket('udp4');
    socket.on('message', () => undefined);
    await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));
    sockets.push(socket);
  }
  return { ports: sockets.map((socket) => socket.address().port), stop: () => sockets.map((s) => s.close()) };
}

const relaysOf = (base, token, streamId) =>
  apiClient(base, token).call(relayRoutes.listByStream, { params: { streamId } });

/** Waits until every relay has reported bytes; throws after `timeoutMs`. */
async function allFlowing(base, token, streamId, count, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const relays = await relaysOf(base, token, streamId);
    if (relays.length === count && relays.every((relay) => relay.uploaded > 0)) return;
    await sleep(500);
  }
  throw new Error(`not all ${count} relays sent bytes within ${timeoutMs} ms`);
}

/** The node's CPU over a window, and each relay's sending rate over it (from the node's own reports). */
async function measure(base, token, nodePid, streamId) {
  const before = new Map((await relaysOf(base, token, streamId)).map((relay) => [relay.id, relay]));
  const cpuBefore = treeCpuSeconds(nodePid);
  const windowStart = Date.now();
  await sleep(WINDOW_MS);
  const cpuSeconds = treeCpuSeconds(nodePid) - cpuBefore;
  const cpuPercent = (cpuSeconds / ((Date.now() - windowStart) / 1000)) * 100;
  // Rates between reports: wait for each relay's next one.
  await sleep(REPORT_MS + 500);
  const after = await relaysOf(base, token, streamId);
  const rates = after.map((relay) => {
    const start = before.get(relay.id);
    const seconds = (Date.parse(relay.updatedAt) - Date.parse(start?.updatedAt ?? relay.updatedAt)) / 1000;
    return seconds > 0 ? ((relay.uploaded - (start?.uploaded ?? 0)) * 8) / seconds : 0;
  });
  return { cpuPercent, rates, errors: after.filter((relay) => relay.state !== 'Relaying').length };
}

async function removeRelays(base, token, streamId) {
  const api = apiClient(base, token);
  for (const relay of await relaysOf(base, token, streamId))
    await api.call(relayRoutes.stop, { params: { id: relay.id } });
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const relays = await relaysOf(base, token, streamId);
    if (relays.every((relay) => relay.state !== 'Relaying')) break;
    await sleep(500);
  }
  for (const relay of await relaysOf(base, token, streamId))
    await api.call(relayRoutes.delete, { params: { id: relay.id } });
}

export default async function relaysBench() {
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-relays-bench-'));
  const clip = makeClip(dir);
  const server = await startApi('pglite');
  const rtmpSink = await startRtmpSink(dir);
  const httpSink = await startHttpSink();
  const udp = await udpSinks(UDP_COUNT);
  let node;
  let push;
  try {
    const base = server.url;
    const token = await server.login();
    // The destinations listen on loopback.
    node = await startNode(base, token, join(dir, 'node'), { ALLOW_PRIVATE_NETWORKS: 'on' });
    let stream;
    ({ stream, push } = await pushLiveStream(base, token, clip, 'relayed'));
    const baseline = await cpuPercentOver(node.pid, WINDOW_MS);

    const rounds = [
      ...RTMP_COUNTS.map((count) => ({
        format: 'RTMP',
        count,
        output: (i) => ({ server: rtmpSink.url, key: `relay-${count}-${i}` }),
      })),
      { format: 'UDPTS', count: UDP_COUNT, output: (i) => ({ ipAddress: '127.0.0.1', port: udp.ports[i] }) },
      {
        format: 'CMAF',
        count: CMAF_COUNT,
        output: (i) => ({ endpoint: `${httpSink.url}/${i}`, unifiedStreamingPlatform: i % 2 === 1 }),
      },
    ];
    const rows = [{ relays: 0, format: '—', 'node CPU, % of a core': baseline.toFixed(1) }];
    // What the push brings in (b/s), from the clip: 1.9 Mb/s video + 96 kb/s audio.
    const pushRate = 1_996_000;
    for (const { format, count, output } of rounds) {
      for (let i = 0; i < count; i++) {
        await apiClient(base, token).call(relayRoutes.create, {
          body: { streamId: stream.id, format, output: output(i) },
        });
      }
      await allFlowing(base, token, stream.id, count);
      await sleep(REPORT_MS);
      const { cpuPercent, rates, errors } = await measure(base, token, node.pid, stream.id);
      const keepingUp = rates.filter((rate) => rate >= 0.9 * pushRate).length;
      rows.push({
        relays: count,
        format,
        'node CPU, % of a core': cpuPercent.toFixed(1),
        'CPU per relay, % of a core': ((cpuPercent - baseline) / count).toFixed(2),
        'keeping up (≥ 90 % of the push)': `${keepingUp} of ${count}`,
        'sent per relay, Mb/s (min / median)': `${(Math.min(...rates) / 1e6).toFixed(2)} / ${(
          [...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)] / 1e6
        ).toFixed(2)}`,
        'not Relaying': errors,
      });
      await removeRelays(base, token, stream.id);
      await sleep(2000);
    }
    printTable(
      'Relays of one 2 Mb/s push (tracks copied) on loopback: node process tree CPU over ' +
        `${WINDOW_MS / 1000} s with N relays at once (baseline: the push alone, HLS packaging); ` +
        'per relay = (CPU − baseline) / N; rates from the relays’ own 5-second reports',
      rows,
    );
  } finally {
    push?.kill('SIGKILL');
    await node?.stop();
    rtmpSink.stop();
    httpSink.stop();
    udp.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
