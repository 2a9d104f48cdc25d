// What the media benchmarks share: a real media node registered on the bench's API, a test clip, and the
// CPU a process tree uses.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, ROOT } from '../scripts/lib.mjs';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU seconds of a process and its descendants (Linux /proc): utime + stime + reaped children. */
export function treeCpuSeconds(rootPid) {
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
export function makeClip(dir) {
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

export async function api(base, token, method, path, body) {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

export async function startNode(base, token, dataDir, env = {}) {
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
      ...env,
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
