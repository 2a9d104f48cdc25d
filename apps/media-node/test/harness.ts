import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeControlKeyOf, nodeTokenHash, signNodeControl } from '@streamcloud/contract/node-control-credential';
import { processIds } from '@streamcloud/proc';
import { freeLoopbackPort } from '../src/ports.js';

/**
 * End-to-end harness on loopback: the real control plane (apps/api, PGlite in a temp dir) and real
 * media nodes, each its own process (no app imports another), driven over HTTP like an operator would.
 */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const ADMIN = { username: 'admin', password: 'admin-password-1' };

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A seeded pseudo-random generator in [0, 1) (mulberry32): a failing run can be run again from its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A TCP port free on loopback right now (the node's own helper). */
export const freePort = freeLoopbackPort;

/** Polls `read` until `accept` holds; throws with the last value after `timeoutMs`. */
export async function waitFor<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < deadline) {
    try {
      last = await read();
      if (accept(last)) return last;
    } catch (error) {
      last = error as T;
    }
    await sleep(200);
  }
  throw new Error(`${what} within ${timeoutMs} ms; last: ${JSON.stringify(last)?.slice(0, 500)}`);
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start within ${timeoutMs} ms:\n${out.slice(-2000)}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (process.env.MEDIA_TEST_VERBOSE) process.stderr.write(chunk);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) while starting:\n${out.slice(-2000)}`));
    });
  });
}

export interface ControlPlane {
  url: string;
  token: string;
  /** The API's process (with API_WORKERS, the cluster's primary), when this test started it. */
  pid?: number;
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  stop(): Promise<void>;
}

/** A control plane another process started (the suite's global setup), driven with an admin token. */
export function connectControlPlane(
  url: string,
  token: string,
  stop: () => Promise<void> = async () => {},
): ControlPlane {
  return {
    url,
    token,
    async api<T>(method: string, path: string, body?: unknown) {
      const response = await fetch(`${url}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // not JSON
      }
      return { status: response.status, body: parsed as T };
    },
    stop,
  };
}

export async function startControlPlane(env: Record<string, string> = {}): Promise<ControlPlane> {
  const dataDir = mkdtempSync(join(tmpdir(), 'streamcloud-media-test-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      LOCAL_MEDIA_NODE: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForLine(child, /Streamcloud is running/, 90_000, 'the control plane');
  const url = `http://127.0.0.1:${port}`;
  const login = await fetch(`${url}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const { token } = (await login.json()) as { token: string };
  const plane = connectControlPlane(url, token, async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
    }
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { ...plane, pid: child.pid };
}

export interface RunningNode {
  id: string;
  name: string;
  /** The node token (to run the node again after a stop or a kill). */
  token: string;
  port: number;
  rtmpPort: number;
  srtPort: number;
  rtspPort: number;
  process: ChildProcess;
  /** SIGTERM and wait (a clean stop). */
  stop(): Promise<void>;
  /** SIGKILL: the node dies without a word. */
  kill(): Promise<void>;
}

/** Registers a node (enabled, opened) and runs a media node process with its token. */
export async function startMediaNode(
  plane: ControlPlane,
  name: string,
  env: Record<string, string> = {},
): Promise<RunningNode> {
  const port = await freePort();
  const rtmpPort = await freePort();
  const srtPort = await freePort();
  const rtspPort = await freePort();
  const created = await plane.api<{ id: string; token: string }>('POST', '/nodes', {
    name,
    connection: { protocol: 'HTTP', hostname: '127.0.0.1', port },
    enabled: true,
    opened: true,
  });
  if (created.status !== 201)
    throw new Error(`node registration failed: ${created.status} ${JSON.stringify(created.body)}`);
  const node = { id: created.body.id, name, token: created.body.token, port, rtmpPort, srtPort, rtspPort };
  // A free port may be taken by another process before the node binds it: then the node gets new ones.
  for (let attempt = 1; ; attempt++) {
    try {
      const running = await runMediaNode(plane.url, node, env);
      // Placement skips nodes silent past NODE_SILENCE_SECONDS: streams are placed here once it has reported.
      await waitFor(
        () => plane.api<{ load: unknown }>('GET', `/nodes/${node.id}`),
        (answer) => answer.body?.load !== null && answer.body?.load !== undefined,
        10_000,
        `node ${name} reporting its load`,
      );
      return running;
    } catch (error) {
      if (attempt === 3 || !String(error).includes('EADDRINUSE')) throw error;
      Object.assign(node, {
        port: await freePort(),
        rtmpPort: await freePort(),
        srtPort: await freePort(),
        rtspPort: await freePort(),
      });
      await plane.api('PUT', `/nodes/${node.id}`, {
        name,
        connection: { protocol: 'HTTP', hostname: '127.0.0.1', port: node.port },
        enabled: true,
        opened: true,
      });
    }
  }
}

/** Runs a media node process for a registered node, reporting to the control plane at `controlPlaneUrl`. */
export async function runMediaNode(
  controlPlaneUrl: string,
  node: { id: string; name: string; token: string; port: number; rtmpPort: number; srtPort: number; rtspPort?: number },
  env: Record<string, string> = {},
): Promise<RunningNode> {
  const dataDir = mkdtempSync(join(tmpdir(), 'streamcloud-media-node-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/media-node/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      CONTROL_PLANE_URL: controlPlaneUrl,
      NODE_TOKEN: node.token,
      NODE_PORT: String(node.port),
      NODE_BIND: '127.0.0.1',
      NODE_HOSTNAME: '127.0.0.1',
      RTMP_PORT: String(node.rtmpPort),
      SRT_PORT: String(node.srtPort),
      RTSP_PORT: String(node.rtspPort ?? 0),
      // Any free port: the node tells the control plane, whose SRT output URLs name it.
      SRT_PLAY_PORT: '0',
      MEDIA_DATA_DIR: dataDir,
      RECONNECT_GRACE_MS: '2000',
      // The suite's control plane takes a node silent for 4 s as gone (global-setup.ts): at the default
      // 5 s between load reports, a stream with no push (a reconnect grace) went to Error between two.
      REPORT_INTERVAL_MS: '1000',
      // The tests' relay destinations listen on loopback.
      ALLOW_PRIVATE_NETWORKS: 'on',
      NODE_LOG_LEVEL: process.env.MEDIA_TEST_VERBOSE ? 'debug' : 'error',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForLine(child, /media node ready/, 60_000, `media node ${node.name}`);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await Promise.race([exited, sleep(15_000)]);
    rmSync(dataDir, { recursive: true, force: true });
  };
  return {
    ...node,
    rtspPort: node.rtspPort ?? 0,
    process: child,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
  };
}

/**
 * A call of the node's control API as the control plane makes it: signed for the node's token (the node answers
 * nobody else). `token` may be another node's, to see it refused.
 */
export function nodeControl(
  node: { port: number; token: string },
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  token = node.token,
): Promise<Response> {
  const sent = body === undefined ? '' : JSON.stringify(body);
  const credential = signNodeControl(nodeControlKeyOf(nodeTokenHash(token)), { method, path, body: sent });
  return fetch(`http://127.0.0.1:${node.port}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${credential}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: sent }),
  });
}

/** The node's `/metadata`, read as the control plane does. */
export async function nodeMetadata<T = Record<string, unknown>>(node: { port: number; token: string }): Promise<T> {
  const response = await nodeControl(node, 'GET', '/metadata');
  if (!response.ok) throw new Error(`GET /metadata answered ${response.status}`);
  return (await response.json()) as T;
}

export interface Push {
  /** Resolves with ffmpeg's exit code. */
  exited: Promise<number | null>;
  running(): boolean;
  stderr: () => string;
  /**
   * Stops it as an encoder quits (SIGINT: ffmpeg ends its output and closes its connection cleanly), SIGKILL
   * if it has not gone within STOP_GRACE_MS. A killed encoder's socket may be reset by its kernel (what the
   * node last sent unread), which the node rightly takes as a failed push (Error): a test that means a crash
   * calls `kill()`.
   */
  stop(): void;
  /** SIGKILL: the encoder dies without a word. */
  kill(): void;
}

/** How long a stopped ffmpeg may take to close its output before it is killed. */
const STOP_GRACE_MS = 3000;

/** ffmpeg with these arguments, its diagnostics kept; `stop()` ends it as an encoder quits. */
export function ffmpeg(args: string[]): Push {
  const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-loglevel', 'error', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return {
    exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))),
    running: () => child.exitCode === null && child.signalCode === null,
    stderr: () => stderr,
    stop: () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS).unref();
    },
    kill: () => child.kill('SIGKILL'),
  };
}

export interface PatternOptions {
  /** Picture size and frame rate (320x240 at 15 fps). */
  size?: string;
  rate?: number;
  /** The sine tone's sample rate (44100, mono). */
  sampleRate?: number;
  /** Frames from one keyframe to the next (`rate`: a keyframe a second). */
  keyframeInterval?: number;
  /** The lavfi video source (testsrc). */
  source?: string;
  /** Which tracks to push (both). */
  tracks?: 'video' | 'audio' | 'both';
}

/** ffmpeg's test pattern (a keyframe a second, a sine tone) pushed in real time for `seconds`. */
export function pushTestPattern(
  url: string,
  format: 'flv' | 'mpegts' | 'rtsp',
  seconds: number,
  options: PatternOptions = {},
): Push {
  const { size = '320x240', rate = 15, sampleRate = 44100, keyframeInterval = rate, source = 'testsrc' } = options;
  const { tracks = 'both' } = options;
  const video = ['-f', 'lavfi', '-i', `${source}${source.includes('=') ? ':' : '='}size=${size}:rate=${rate}`];
  const audio = ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=${sampleRate}`];
  return ffmpeg([
    '-re',
    ...(tracks === 'audio' ? [] : video),
    ...(tracks === 'video' ? [] : audio),
    '-t',
    String(seconds),
    ...(tracks === 'audio' ? [] : ['-c:v', 'libx264', '-preset', 'ultrafast', '-g', String(keyframeInterval)]),
    ...(tracks === 'video' ? [] : ['-c:a', 'aac']),
    // The media nodes take RTSP over TCP only (RTP interleaved); ffmpeg asks for UDP first unless told.
    ...(format === 'rtsp' ? ['-rtsp_transport', 'tcp'] : []),
    '-f',
    format,
    url,
  ]);
}

/** An RTMP player (ffmpeg reading the stream at its pace and dropping it) for at most `seconds`. */
export const playRtmp = (url: string, seconds: number): Push =>
  ffmpeg(['-i', url, '-t', String(seconds), '-f', 'null', '-']);

/** Whether something listens on a loopback TCP port (without connecting: an ffmpeg listener takes one client). */
export function tcpListening(port: number): boolean {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .some((line) => {
      const fields = line.trim().split(/\s+/);
      return fields[1]?.endsWith(`:${hex}`) && fields[3] === '0A';
    });
}

/** An ffmpeg RTMP server (`-listen 1`) on a loopback port, writing what it receives (tracks copied) to `file`. */
export async function rtmpReceiver(port: number, file: string): Promise<Push> {
  const receiver = ffmpeg(['-listen', '1', '-i', `rtmp://127.0.0.1:${port}/live/any`, '-c', 'copy', '-f', 'flv', file]);
  await waitFor(async () => tcpListening(port), Boolean, 10_000, 'the RTMP receiver listening');
  return receiver;
}

/** Runs a tool to completion: its exit code and output. */
export function runTool(
  command: string,
  args: string[],
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A TCP relay that counts what the client sends (a publisher's bytes: the reference for the billing check)
 * and what it receives (a viewer's); `hold()` stops taking the clients' bytes, the connections kept open.
 */
export async function countingRelay(targetPort: number): Promise<{
  port: number;
  bytes: () => number;
  bytesBack: () => number;
  firstByteAt: () => number | null;
  hold(): void;
  close(): Promise<void>;
}> {
  let bytes = 0;
  let bytesBack = 0;
  let firstByteAt: number | null = null;
  const clients = new Set<Socket>();
  const server: Server = createServer((client) => {
    clients.add(client);
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    client.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      firstByteAt ??= Date.now();
    });
    upstream.on('data', (chunk: Buffer) => {
      bytesBack += chunk.length;
    });
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => {
      clients.delete(client);
      upstream.destroy();
    });
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    bytes: () => bytes,
    bytesBack: () => bytesBack,
    firstByteAt: () => firstByteAt,
    hold() {
      for (const client of clients) {
        client.unpipe();
        client.pause();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of clients) client.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The processes whose command line `matches` (e.g. a node's encoder for a stream). */
export { processIds };

export const processRunning = (matches: (command: string) => boolean): boolean => processIds(matches).length > 0;

/** The colour (r, g, b) of one pixel of an image (PNG or JPEG bytes) or of a video's first picture, read with ffmpeg. */
export async function pixelAt(image: Buffer, x: number, y: number): Promise<[number, number, number]> {
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-pixel-'));
  try {
    const file = join(dir, 'image');
    writeFileSync(file, image);
    // The first picture as PNG first: a fragment of nginx-rtmp's HLS starts with a packet of parameter sets
    // only, which ffmpeg's filters take for a 0x0 picture.
    const picture = join(dir, 'picture.png');
    await runTool('ffmpeg', ['-v', 'error', '-i', file, '-frames:v', '1', picture], 10_000);
    const out = join(dir, 'pixel.rgb');
    await runTool(
      'ffmpeg',
      ['-v', 'error', '-i', picture, '-vf', `crop=1:1:${x}:${y}`, '-f', 'rawvideo', '-pix_fmt', 'rgb24', out],
      10_000,
    );
    const bytes = readFileSync(out);
    return [bytes[0] ?? 0, bytes[1] ?? 0, bytes[2] ?? 0];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** VP8 RTP of the test pattern to a local UDP port (what a browser would send over WebRTC). */
export function pushTestPatternVp8(port: number): { stop(): void } {
  const child = spawn(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-re',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=320x240:rate=15',
      '-t',
      '60',
      '-c:v',
      'libvpx',
      '-deadline',
      'realtime',
      '-cpu-used',
      '8',
      '-b:v',
      '300k',
      '-g',
      '15',
      '-f',
      'rtp',
      '-payload_type',
      '96',
      `rtp://127.0.0.1:${port}?pkt_size=1200`,
    ],
    { stdio: 'ignore' },
  );
  return { stop: () => child.kill('SIGKILL') };
}

/** WHIP/WHEP offers as a client sends them (a package: bench sends them too). */
export { offerSdp, postOffer, WHEP_OFFER_PAYLOAD_TYPES, type WhepViewer, whepViewer } from '@streamcloud/whip-client';
