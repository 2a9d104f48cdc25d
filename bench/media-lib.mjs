// What the media benchmarks share: a real media node registered on the bench's API, a test clip, and the
// CPU a process tree uses.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeRoutes, storageRoutes, streamRoutes, transcodeRoutes } from '@streamcloud/contract';
import { nodeControlKeyOf, nodeTokenHash, signNodeControl } from '@streamcloud/contract/node-control-credential';
// The bench runs under tsx (scripts/bench.mjs): the node's CPU meter and the test harness's process lookup.
import { processIds, treeCpuSeconds } from '@streamcloud/proc';
import { freePort, ROOT } from '../scripts/lib.mjs';
import { apiClient, startApi } from './lib.mjs';

export { processIds, treeCpuSeconds };

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A 20 s clip of the test pattern (testsrc2: motion everywhere) at a constant bitrate, a keyframe a second,
 * AAC, to be pushed with -c copy; by default 640x360 at 30 fps and 2 Mbps, with libx264's B-frames (`bFrames:
 * false`: none, as a WebRTC-safe encoder sends it).
 */
export function makeClip(dir, { size = '640x360', rate = 30, kbps = 1900, bFrames = true } = {}) {
  const clip = join(dir, `pattern-${size}-${rate}-${kbps}k${bFrames ? '' : '-nobf'}.flv`);
  const result = spawnSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${size}:rate=${rate}`,
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
    `${kbps}k`,
    '-minrate',
    `${kbps}k`,
    '-maxrate',
    `${kbps}k`,
    '-bufsize',
    `${kbps}k`,
    '-x264-params',
    'nal-hrd=cbr',
    '-g',
    String(rate),
    ...(bFrames ? [] : ['-bf', '0']),
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

/** A red PNG of `size` ('200x100') as a data URI, as the console would upload it (a logo, a slate). */
export function redPngDataUri(dir, size) {
  const file = join(dir, `red-${size}.png`);
  const result = spawnSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `color=c=red:s=${size}`,
    '-frames:v',
    '1',
    file,
  ]);
  if (result.status !== 0) throw new Error(`making the image failed: ${result.stderr}`);
  return `data:image/png;base64,${readFileSync(file).toString('base64')}`;
}

/** The clip of the WebRTC and viewer benches: 720p30 at 2.5 Mb/s without B-frames (a WebRTC-safe H.264 source). */
export const HD_NO_B_FRAMES = { size: '1280x720', rate: 30, kbps: 2500, bFrames: false };

/** Pushes a clip in a loop, in real time, with -c copy. */
export function pushClip(clip, url) {
  return spawn(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy', '-f', 'flv', url],
    { stdio: ['ignore', 'ignore', process.env.BENCH_MEDIA_DEBUG ? 'inherit' : 'ignore'] },
  );
}

/** Resident memory of some processes, MB (their sum; shared pages counted in each). */
export function treeRssMb(pids) {
  let kb = 0;
  for (const pid of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return kb / 1024;
}

/** The node's process tree CPU over `ms`, in % of a core. */
export async function cpuPercentOver(pid, ms) {
  const before = treeCpuSeconds(pid);
  const start = Date.now();
  await sleep(ms);
  return ((treeCpuSeconds(pid) - before) / ((Date.now() - start) / 1000)) * 100;
}

/** A passthrough RTMP stream pushed with the clip (looped) until it is live and has settled for 3 s. */
export function pushLiveStream(base, token, clip, caption) {
  return liveStream(base, token, caption, (url) => pushClip(clip, url));
}

/**
 * A passthrough RTMP stream (or one transcoded to `ladder`, its transcode tracks) pushed by `startPush(url)`
 * (answers the pushing child process) until it is live and has settled for 3 s.
 */
export async function liveStream(base, token, caption, startPush, ladder = null) {
  const api = apiClient(base, token);
  const stream = await api.call(streamRoutes.create, {
    body: { format: 'RTMP', output: { passthrough: ladder === null }, caption },
  });
  if (ladder) await api.call(transcodeRoutes.update, { params: { id: stream.id }, body: { tracks: ladder } });
  const push = startPush(stream.connection.uri);
  const deadline = Date.now() + 30_000;
  while ((await api.call(streamRoutes.get, { params: { id: stream.id } })).status !== 'Ingestion') {
    if (Date.now() > deadline) {
      push.kill('SIGKILL');
      throw new Error('the push did not go live');
    }
    await sleep(300);
  }
  await sleep(3000);
  return { stream, push };
}

export async function startNode(base, token, dataDir, env = {}, name = 'bench-node') {
  const port = await freePort();
  const rtmpPort = await freePort();
  const srtPort = await freePort();
  const created = await apiClient(base, token).call(nodeRoutes.create, {
    body: {
      name,
      connection: { protocol: 'HTTP', hostname: '127.0.0.1', port },
      enabled: true,
      opened: true,
    },
  });
  // BENCH_MEDIA_NODE_ARGS: Node options for the media nodes alone (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
  const nodeArgs = (process.env.BENCH_MEDIA_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'apps/media-node/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      CONTROL_PLANE_URL: base,
      NODE_TOKEN: created.token,
      NODE_PORT: String(port),
      NODE_BIND: '127.0.0.1',
      NODE_HOSTNAME: '127.0.0.1',
      RTMP_PORT: String(rtmpPort),
      SRT_PORT: String(srtPort),
      // Any free port: several nodes of one benchmark must not share the default ones.
      RTSP_PORT: '0',
      SRT_PLAY_PORT: '0',
      MEDIA_DATA_DIR: dataDir,
      NODE_LOG_LEVEL: process.env.BENCH_MEDIA_DEBUG ? 'info' : 'error',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // BENCH_MEDIA_DEBUG=1: the node's log with the bench's output.
  if (process.env.BENCH_MEDIA_DEBUG) child.stdout.pipe(process.stderr);
  await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('media node ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the media node exited (${code})`)));
  });
  const controlKey = nodeControlKeyOf(nodeTokenHash(created.token));
  return {
    id: created.id,
    pid: child.pid,
    port,
    /** The node's /metadata, read as the control plane does (a signed call: the node answers nobody else). */
    metadata: async () => {
      const credential = signNodeControl(controlKey, { method: 'GET', path: '/metadata' });
      const response = await fetch(`http://127.0.0.1:${port}/metadata`, {
        headers: { authorization: `Bearer ${credential}` },
      });
      return response.json();
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/**
 * A media bench's world: a temporary folder, the API on PGlite signed in as the bench admin, and one real node
 * registered on it; `work({ dir, base, token, node })` runs in it, and all of it goes after, whatever happened.
 */
export async function withNodeWorld(prefix, work, nodeEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), `streamcloud-${prefix}-bench-`));
  const server = await startApi('pglite');
  let node;
  try {
    const token = await server.login();
    node = await startNode(server.url, token, join(dir, 'node'), nodeEnv);
    return await work({ dir, base: server.url, token, node });
  } finally {
    await node?.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A node world (withNodeWorld, the node with `nodeEnv`) with one passthrough stream live, pushed with a clip made
 * with `clipOptions` (makeClip); `work({ dir, base, token, node, api, stream })` runs while it is pushed.
 */
export function withLivePush(prefix, { clipOptions, nodeEnv = {} }, work) {
  return withNodeWorld(
    prefix,
    async (world) => {
      const clip = makeClip(world.dir, clipOptions);
      const { stream, push } = await pushLiveStream(world.base, world.token, clip, `${prefix} bench`);
      try {
        return await work({ ...world, api: apiClient(world.base, world.token), stream });
      } finally {
        push.kill('SIGKILL');
      }
    },
    nodeEnv,
  );
}

/** A storage of the signed-in account in the local S3 server's `bucket` (under `bench/`), not checked. */
export function createLocalS3Storage(api, s3, bucket) {
  return api.call(storageRoutes.create, {
    query: { check: false },
    body: {
      name: 'bench storage',
      type: 'AmazonS3Compatible',
      endpoint: s3.endpoint,
      bucket,
      path: 'bench',
      regionName: null,
      ...s3.credentials,
    },
  });
}
