// Issue 8: the media node under 1, 5 and 20 simultaneous RTMP pushes of a 2 Mbps test pattern on
// loopback. Per push: publish → Ingestion (as the API shows it), → first snapshot, → first HLS
// fragment; and the media node's CPU (its whole process tree: node, nginx, snapshot ffmpegs) per
// ingested stream without transcoding, over a 10 s window once every push is live.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT } from '../scripts/lib.mjs';
import { printTable, startApi } from './lib.mjs';

const COUNTS = (process.env.BENCH_MEDIA_COUNTS ?? '1,5,20').split(',').map(Number);
const CPU_WINDOW_MS = Number(process.env.BENCH_MEDIA_CPU_WINDOW_MS ?? 10_000);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds of a process and its descendants (Linux /proc): utime + stime + reaped children. */
function treeCpuSeconds(rootPid) {
  const parent = new Map();
  const ticks = new Map();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      ticks.set(Number(name), Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]));
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  for (const [pid, used] of ticks) {
    for (let cursor = pid, depth = 0; cursor && depth < 64; depth++, cursor = parent.get(cursor)) {
      if (cursor === rootPid) {
        total += used;
        break;
      }
    }
  }
  return total / 100;
}

/** A 20 s clip of the test pattern at 2 Mbps (640x360, 30 fps, a keyframe a second, AAC), pushed with -c copy. */
function makeClip(dir) {
  const clip = join(dir, 'pattern-2mbps.flv');
  const result = spawnSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=640x360:rate=30',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440',
    '-t',
    '20',
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-b:v',
    '1900k',
    '-minrate',
    '1900k',
    '-maxrate',
    '1900k',
    '-bufsize',
    '1900k',
    '-x264-params',
    'nal-hrd=cbr',
    '-g',
    '30',
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-f',
    'flv',
    clip,
  ]);
  if (result.status !== 0) throw new Error(`making the test clip failed: ${result.stderr}`);
  return clip;
}

async function api(base, token, method, path, body) {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

async function startNode(base, token, dataDir) {
  const port = await freePort();
  const rtmpPort = await freePort();
  const srtPort = await freePort();
  const created = await api(base, token, 'POST', '/nodes', {
    name: 'bench-node',
    connection: { protocol: 'HTTP', hostname: '127.0.0.1', port },
    enabled: true,
    opened: true,
  });
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/media-node/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      CONTROL_PLANE_URL: base,
      NODE_TOKEN: created.body.token,
      NODE_PORT: String(port),
      NODE_BIND: '127.0.0.1',
      NODE_HOSTNAME: '127.0.0.1',
      RTMP_PORT: String(rtmpPort),
      SRT_PORT: String(srtPort),
      MEDIA_DATA_DIR: dataDir,
      NODE_LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('media node ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the media node exited (${code})`)));
  });
  return {
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

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
  const streams = [];
  for (let i = 0; i < count; i++) {
    const stream = (
      await api(base, token, 'POST', '/inputs', {
        format: 'RTMP',
        output: { passthrough: true },
        caption: `bench ${count}/${i}`,
      })
    ).body;
    const hls = (await api(base, token, 'POST', '/outputs', { streamId: stream.id, format: 'HLS' })).body;
    await api(base, token, 'PUT', `/snapshots/stream/${stream.id}/incoming`, {
      format: 'JPEG',
      quality: 'Low',
      interval: 5,
    });
    const relay = await firstByteRelay(stream.connection.uri);
    streams.push({ stream, relay, hls: hls.connection.uri, ingestion: null, snapshot: null, fragment: null });
  }
  // Times count from the publisher's first byte (ffmpeg's own start-up is not the node's).
  const pushes = streams.map((entry) => {
    return spawn(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-re',
        '-stream_loop',
        '-1',
        '-i',
        clip,
        '-c',
        'copy',
        '-f',
        'flv',
        entry.relay.url,
      ],
      { stdio: ['ignore', 'ignore', process.env.BENCH_MEDIA_DEBUG ? 'inherit' : 'ignore'] },
    );
  });
  const deadline = Date.now() + 60_000;
  while (
    Date.now() < deadline &&
    streams.some((entry) => entry.ingestion === null || entry.snapshot === null || entry.fragment === null)
  ) {
    const list = (await api(base, token, 'GET', '/inputs?limit=200')).body;
    const status = new Map(list.map((summary) => [summary.id, summary.status]));
    await Promise.all(
      streams.map(async (entry) => {
        const start = entry.relay.state.firstByteAt;
        if (start === null) return;
        if (entry.ingestion === null && status.get(entry.stream.id) === 'Ingestion')
          entry.ingestion = Date.now() - start;
        if (entry.snapshot === null) {
          const image = await fetch(`${base}/api/v1/snapshots/stream/${entry.stream.id}/incoming/image`, {
            headers: { authorization: `Bearer ${token}` },
          });
          await image.arrayBuffer();
          if (image.status === 200) entry.snapshot = Date.now() - start;
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
  for (const entry of streams) await api(base, token, 'DELETE', `/inputs/${entry.stream.id}`);
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
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-media-bench-'));
  const clip = makeClip(dir);
  const server = await startApi('pglite');
  let node;
  try {
    const token = await server.login();
    node = await startNode(server.url, token, join(dir, 'node'));
    const rows = [];
    for (const count of COUNTS) {
      rows.push(await round(server.url, token, node.pid, clip, count));
      await sleep(3000);
    }
    printTable(
      'Media node: RTMP pushes of a 2 Mbps test pattern (ffmpeg -re -c copy) on loopback; times from the publisher’s first byte, ' +
        'polled every ~100 ms through the API; CPU of the node process tree (passthrough: HLS packaging, snapshots every 5 s)',
      rows,
    );
  } finally {
    await node?.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
