// Issue 15: the transcoder pipeline on one media node. For each ladder, a real RTMP push (a looped test
// clip, -c copy) of an adjustable-transcode stream; once the ladder runs, over a 10 s window: the CPU of
// the stream's transcoder ffmpeg and of the node's whole process tree, as a share of one core, and the
// encoder's real-time speed (media seconds encoded per second, what the node reports in /metadata).
// Then how many 720p30 → 720p+360p streams one node keeps in real time (every speed ≥ 0.98).
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamRoutes, transcodeRoutes } from '@streamcloud/contract';
import { apiClient, printTable, startApi } from './lib.mjs';
import { makeClip, processIds, pushClip, redPngDataUri, sleep, startNode, treeCpuSeconds } from './media-lib.mjs';

const WINDOW_MS = Number(process.env.BENCH_TRANSCODE_WINDOW_MS ?? 10_000);
const WARM_UP_MS = Number(process.env.BENCH_TRANSCODE_WARM_UP_MS ?? 12_000);
const MAX_STREAMS = Number(process.env.BENCH_TRANSCODE_MAX_STREAMS ?? 6);
/** Below this, an encoder falls behind its live input. */
const REAL_TIME = 0.98;

const h264 = (width, height, kbps) => ({
  type: 'H264',
  width,
  height,
  framerate: 30,
  settings: { bitrate: kbps, speedPreset: 'veryfast', tune: 'zerolatency', keyIntMax: 0 },
});
const AAC = { type: 'AAC', rate: 48000, channels: 2, settings: { bitrate: 128 } };
const LADDERS = {
  '1080p30 → 720p+480p+360p': {
    source: '1080p',
    tracks: [h264(1280, 720, 2500), h264(854, 480, 1200), h264(640, 360, 800), AAC],
  },
  '720p30 → 720p+360p': { source: '720p', tracks: [h264(1280, 720, 2500), h264(640, 360, 800), AAC] },
  '720p30 → 720p+360p, overlay and epoch time': {
    source: '720p',
    tracks: [h264(1280, 720, 2500), h264(640, 360, 800), AAC],
    overlay: true,
  },
};

async function adjustableStream(base, token, ladder, logo) {
  const api = apiClient(base, token);
  const stream = await api.call(streamRoutes.create, { body: { format: 'RTMP', output: { passthrough: false } } });
  await api.call(transcodeRoutes.update, {
    params: { id: stream.id },
    body: {
      epochTimeEncoder: { enabled: Boolean(ladder.overlay) },
      overlay: ladder.overlay ? { data: logo, offsetX: 40, offsetY: 40 } : null,
      tracks: ladder.tracks,
    },
  });
  return stream;
}

/** The transcoder speed the node reports for each stream (null until measured). */
async function speeds(node, streams) {
  const metadata = await node.metadata();
  const byId = new Map(metadata.streams.map((stream) => [stream.id, stream.pipelines?.transcoder?.speed ?? null]));
  return streams.map((stream) => byId.get(stream.id) ?? null);
}

/** Pushes `count` streams with one ladder; answers the CPU and speeds once they all transcode. */
async function measure({ base, token, node, clips, logo }, ladder, count) {
  const streams = [];
  for (let i = 0; i < count; i++) streams.push(await adjustableStream(base, token, ladder, logo));
  const pushes = streams.map((stream) => pushClip(clips[ladder.source], stream.connection.uri));
  try {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline && (await speeds(node, streams)).some((speed) => speed === null)) await sleep(500);
    await sleep(WARM_UP_MS);
    const encoders = streams.flatMap((stream) =>
      processIds(
        (command) =>
          command.startsWith('/usr/bin/ffmpeg ') && command.includes(`${stream.id}_r0`) && command.includes('libx264'),
      ),
    );
    const before = { at: Date.now(), node: treeCpuSeconds(node.pid), encoders: encoders.map(treeCpuSeconds) };
    const samples = [];
    while (Date.now() - before.at < WINDOW_MS) {
      await sleep(1000);
      samples.push(await speeds(node, streams));
    }
    const seconds = (Date.now() - before.at) / 1000;
    const nodeShare = (treeCpuSeconds(node.pid) - before.node) / seconds;
    const encoderShares = encoders.map((pid, index) => (treeCpuSeconds(pid) - (before.encoders[index] ?? 0)) / seconds);
    // Each stream's slowest speed over the window.
    const slowest = streams.map((_, index) => Math.min(...samples.map((sample) => sample[index] ?? 0)));
    return {
      streams: count,
      encoderShare: encoderShares.reduce((sum, share) => sum + share, 0) / Math.max(1, encoderShares.length),
      nodeShare,
      slowest: Math.min(...slowest),
      median: samples.flat().sort((a, b) => a - b)[Math.floor(samples.flat().length / 2)] ?? 0,
    };
  } finally {
    for (const push of pushes) push.kill('SIGKILL');
    for (const stream of streams) await apiClient(base, token).call(streamRoutes.delete, { params: { id: stream.id } });
    await sleep(3000);
  }
}

export default async function transcodeBench() {
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-transcode-bench-'));
  const clips = {
    '1080p': makeClip(dir, { size: '1920x1080', rate: 30, kbps: 6000 }),
    '720p': makeClip(dir, { size: '1280x720', rate: 30, kbps: 3500 }),
  };
  const server = await startApi('pglite');
  let node;
  try {
    const token = await server.login();
    node = await startNode(server.url, token, join(dir, 'node'));
    const context = { base: server.url, token, node, clips, logo: redPngDataUri(dir, '200x100') };
    const rows = [];
    for (const [name, ladder] of Object.entries(LADDERS)) {
      const result = await measure(context, ladder, 1);
      rows.push({
        ladder: name,
        'encoder CPU, share of a core': result.encoderShare.toFixed(2),
        'node CPU, share of a core': result.nodeShare.toFixed(2),
        'speed (median / slowest)': `${result.median.toFixed(2)} / ${result.slowest.toFixed(2)}`,
      });
    }
    printTable(
      `Transcoder: one push each (looped clip, -c copy), H.264 veryfast + AAC 128k, CPU over ${WINDOW_MS / 1000} s ` +
        `after the ladder ran ${WARM_UP_MS / 1000} s; load average before: ${loadavg()[0].toFixed(2)} on this machine`,
      rows,
    );
    const capacity = [];
    let sustained = 0;
    for (let count = 1; count <= MAX_STREAMS; count++) {
      const result = await measure(context, LADDERS['720p30 → 720p+360p'], count);
      capacity.push({
        'streams (720p30 → 720p+360p)': count,
        'node CPU, share of a core': result.nodeShare.toFixed(2),
        'slowest speed': result.slowest.toFixed(2),
        'real time': result.slowest >= REAL_TIME ? 'yes' : 'no',
      });
      if (result.slowest < REAL_TIME) break;
      sustained = count;
    }
    printTable(
      `Transcoder capacity of one node (${availableParallelism()} cores): ${sustained} stream(s) of 720p30 → 720p+360p in real time ` +
        `(every encoder's speed ≥ ${REAL_TIME} over the window)`,
      capacity,
    );
  } finally {
    await node?.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
