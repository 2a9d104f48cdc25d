// Issue 35, clips: a 2.5 Mb/s push (640x360, a keyframe a second) on a real media node on loopback, its Low
// latency output keeping a rewind window, and 30 s clips of that window asked for through the API, cut by the
// node without re-encoding and uploaded to a real local S3 server (s3rver). Measured: the time from the call to
// Ready (one at a time, then several at once), the clips' length and size as the node reports them, and the
// rewind window's disk per hour of that stream.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clipRoutes, streamRoutes } from '@streamcloud/contract';
import { startLocalS3 } from '@streamcloud/s3/testing';
import { apiClient, percentile, printTable, startApi } from './lib.mjs';
import { createLocalS3Storage, makeClip, pushLiveStream, sleep, startNode } from './media-lib.mjs';

const SEQUENTIAL = Number(process.env.BENCH_CLIPS_SEQUENTIAL ?? 5);
const CONCURRENT = Number(process.env.BENCH_CLIPS_CONCURRENT ?? 3);
const CLIP_SECONDS = Number(process.env.BENCH_CLIP_SECONDS ?? 30);
const BUCKET = 'bench-clips';

/** Asks for a clip of the last CLIP_SECONDS (ending 2 s ago) and polls it every 100 ms until Ready or Error. */
export async function timedClip(api, streamId, storageId, caption) {
  const to = Date.now() - 2000;
  const started = Date.now();
  const clip = await api.call(clipRoutes.create, {
    body: {
      streamId,
      from: new Date(to - CLIP_SECONDS * 1000).toISOString(),
      to: new Date(to).toISOString(),
      caption,
      storageId,
    },
  });
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(100)) {
    const now = await api.call(clipRoutes.get, { params: { id: clip.id } });
    if (now.state === 'Ready' || now.state === 'Error') return { clip: now, ms: Date.now() - started };
  }
  throw new Error(`clip ${caption} not finished within 30 s`);
}

/** The rewind window's bytes and seconds on the node's disk (its segments and their index). */
export function windowOnDisk(dvrDir) {
  let bytes = 0;
  let seconds = 0;
  for (const input of readdirSync(dvrDir))
    for (const variant of readdirSync(join(dvrDir, input))) {
      const dir = join(dvrDir, input, variant);
      for (const name of readdirSync(dir)) if (name.startsWith('seg-')) bytes += statSync(join(dir, name)).size;
      for (const line of readFileSync(join(dir, 'index.jsonl'), 'utf8').split('\n'))
        if (line) seconds += JSON.parse(line).duration;
    }
  return { bytes, seconds };
}

/**
 * The clips' world (also the `vod` bench's): a media node with a local S3 storage, and a 2.5 Mb/s push whose Low
 * latency output keeps a 10-minute rewind window, once it holds a clip and its lead; `work` gets them, then all goes.
 */
export async function withClippedStream(work) {
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-clips-bench-'));
  const pattern = makeClip(dir, { kbps: 2400 });
  const s3 = await startLocalS3([BUCKET]);
  const server = await startApi('pglite');
  let node;
  let push;
  try {
    const base = server.url;
    const token = await server.login();
    const dataDir = join(dir, 'node');
    node = await startNode(base, token, dataDir, { ALLOW_PRIVATE_NETWORKS: 'on' });
    const api = apiClient(base, token);
    const storage = await createLocalS3Storage(api, s3, BUCKET);
    let stream;
    ({ stream, push } = await pushLiveStream(base, token, pattern, 'clipped'));
    const rewind = await api.call(streamRoutes.createOutput, {
      body: { streamId: stream.id, format: 'HLS', hlsLatency: 'Low', dvrWindowMinutes: 10 },
    });
    const liveAt = Date.now();
    // The window must hold a whole clip and its lead.
    await sleep((CLIP_SECONDS + 8) * 1000);
    return await work({ api, base, stream, rewind, storage, dataDir, liveAt });
  } finally {
    push?.kill('SIGKILL');
    await node?.stop();
    await server.stop();
    await s3.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Clips of the window one at a time, then several at once: a row each of the times to Ready, lengths and sizes. */
export async function clipRows(api, stream, storage) {
  const rows = [];
  const add = (how, results) => {
    const times = results.map((result) => result.ms);
    rows.push({
      clips: how,
      'Ready after, ms (median)': percentile(times, 50),
      'max, ms': Math.max(...times),
      'length, s': results.map((result) => result.clip.duration?.toFixed(2) ?? '?').join(' '),
      'size, MB': (results.reduce((sum, result) => sum + (result.clip.size ?? 0), 0) / results.length / 1e6).toFixed(1),
      Error: results.filter((result) => result.clip.state === 'Error').length,
    });
  };
  const sequential = [];
  for (let i = 0; i < SEQUENTIAL; i++) sequential.push(await timedClip(api, stream.id, storage.id, `one ${i}`));
  add(`${SEQUENTIAL}, one at a time`, sequential);
  const together = await Promise.all(
    Array.from({ length: CONCURRENT }, (_, i) => timedClip(api, stream.id, storage.id, `together ${i}`)),
  );
  add(`${CONCURRENT} at once`, together);
  return rows;
}

export const CLIPS_TITLE =
  `Clips of ${CLIP_SECONDS} s of a 2.5 Mb/s push's rewind window (640x360, a keyframe a second), from the ` +
  'call to Ready as the API answers it (polled every 0.1 s): cut by the node with ffmpeg -c copy and ' +
  'uploaded to s3rver on loopback';

/** The rewind window on the node's disk, and what it takes per hour of the stream. */
export function windowRow(dataDir) {
  const window = windowOnDisk(join(dataDir, 'dvr'));
  return {
    'seconds kept': window.seconds.toFixed(0),
    MB: (window.bytes / 1e6).toFixed(1),
    'GB per hour of the stream': (((window.bytes / window.seconds) * 3600) / 1e9).toFixed(2),
  };
}

export default async function clipsBench() {
  await withClippedStream(async ({ api, stream, storage, dataDir }) => {
    printTable(CLIPS_TITLE, await clipRows(api, stream, storage));
    printTable('The rewind window on the node’s disk', [windowRow(dataDir)]);
  });
}
