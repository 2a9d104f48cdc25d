// Issue 16: recordings of one live push (a 2 Mbps test pattern, pushed with -c copy) by a real media node
// on loopback, uploaded to a real local S3 server (s3rver). Per round, N recordings (fragmented MP4, both
// tracks copied) run at once: the CPU they add to the node's process tree (the node, its nginx, the
// recorders' ffmpegs) per recording, and how many keep up with the stream (recorded duration growing with
// the wall clock); then all are stopped and the time until every object is uploaded is taken. Apart, the
// node's uploader alone (uploadFile of @streamcloud/s3: one PutObject, or multipart in parts of 8 MiB) on files of
// known size.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordingRoutes } from '@streamcloud/contract';
import { addressPolicy, guardedAgents } from '@streamcloud/net-guard';
import { startLocalS3 } from '@streamcloud/s3/testing';
import { uploadFile } from '@streamcloud/s3/upload';
import { apiClient, printTable, startApi } from './lib.mjs';
import { cpuPercentOver, createLocalS3Storage, makeClip, pushLiveStream, sleep, startNode } from './media-lib.mjs';

const COUNTS = (process.env.BENCH_RECORDING_COUNTS ?? '1,5,10,20').split(',').map(Number);
const WINDOW_MS = Number(process.env.BENCH_RECORDING_WINDOW_MS ?? 12_000);
const UPLOAD_SIZES_MB = (process.env.BENCH_RECORDING_UPLOAD_MB ?? '4,64,256').split(',').map(Number);
/** The recorder reports every 2 s: a window runs from one report to one at least this later. */
const REPORT_MS = 2000;
const BUCKET = 'bench-recordings';

const recordingsOf = (base, token, streamId) =>
  apiClient(base, token).call(recordingRoutes.listByStream, { params: { streamId } });

/** Polls the stream's recordings until `done` holds for all `count` of them; throws after `timeoutMs`. */
async function until(base, token, streamId, count, done, what, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const recordings = await recordingsOf(base, token, streamId);
    if (recordings.length === count && recordings.every(done)) return recordings;
    await sleep(200);
  }
  throw new Error(`not all ${count} recordings ${what} within ${timeoutMs} ms`);
}

/** The node's uploader on its own: MB/s of uploadFile() to the local server, per file size. */
async function uploaderRows(s3, dir) {
  const agents = guardedAgents(addressPolicy({ allowPrivate: true }));
  const target = {
    type: 'AmazonS3Compatible',
    bucket: BUCKET,
    path: null,
    regionName: null,
    endpoint: s3.endpoint,
    ...s3.credentials,
  };
  const rows = [];
  for (const megabytes of UPLOAD_SIZES_MB) {
    const file = join(dir, `upload-${megabytes}.bin`);
    writeFileSync(file, randomBytes(megabytes * 1024 * 1024));
    const started = process.hrtime.bigint();
    const { size } = await uploadFile({
      target,
      agents,
      key: `uploader/${megabytes}.bin`,
      file,
      contentType: 'application/octet-stream',
      from: 'the bench',
      onProgress: () => undefined,
      signal: new AbortController().signal,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    rows.push({
      file: `${megabytes} MiB`,
      how: size > 8 * 1024 * 1024 ? 'multipart, 8 MiB parts, 4 at once' : 'one PutObject',
      seconds: seconds.toFixed(2),
      'MB/s': (size / 1e6 / seconds).toFixed(1),
    });
    rmSync(file);
  }
  return rows;
}

export default async function recordingsBench() {
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-recordings-bench-'));
  const clip = makeClip(dir);
  const s3 = await startLocalS3([BUCKET]);
  const server = await startApi('pglite');
  let node;
  let push;
  try {
    const base = server.url;
    const token = await server.login();
    // The storage listens on loopback.
    node = await startNode(base, token, join(dir, 'node'), { ALLOW_PRIVATE_NETWORKS: 'on' });
    const api = apiClient(base, token);
    const storage = await createLocalS3Storage(api, s3, BUCKET);
    let stream;
    ({ stream, push } = await pushLiveStream(base, token, clip, 'recorded'));
    const baseline = await cpuPercentOver(node.pid, WINDOW_MS);

    const rows = [{ recordings: 0, 'node CPU, % of a core': baseline.toFixed(1) }];
    for (const count of COUNTS) {
      for (let i = 0; i < count; i++) {
        await api.call(recordingRoutes.create, {
          body: {
            streamId: stream.id,
            storageId: storage.id,
            fileName: `bench_${count}_${i}_{uuid}`,
            fileFormat: 'MP4',
            capture: { source: 'Incoming', tracks: [{ type: 'Video' }, { type: 'Audio' }] },
          },
        });
      }
      await until(base, token, stream.id, count, (r) => r.state === 'Recording' && r.length > 0, 'started writing');
      await sleep(REPORT_MS);
      const before = new Map((await recordingsOf(base, token, stream.id)).map((r) => [r.id, r]));
      const cpuPercent = await cpuPercentOver(node.pid, WINDOW_MS);
      await sleep(REPORT_MS + 500);
      // Recorded seconds per wall-clock second between two reports of each recording.
      const paces = (await recordingsOf(base, token, stream.id)).map((r) => {
        const start = before.get(r.id);
        const seconds = (Date.parse(r.updatedAt) - Date.parse(start?.updatedAt ?? r.updatedAt)) / 1000;
        return seconds > 0 ? (r.duration - (start?.duration ?? 0)) / seconds : 0;
      });
      const keepingUp = paces.filter((pace) => pace >= 0.9).length;

      const stopped = Date.now();
      for (const id of before.keys()) await api.call(recordingRoutes.stop, { params: { id } });
      const done = await until(
        base,
        token,
        stream.id,
        count,
        (r) => r.state === 'Completed' || r.state === 'Error',
        'ended',
      );
      const stopToCompleted = (Date.now() - stopped) / 1000;
      const bytes = done.reduce((sum, r) => sum + r.length, 0);
      rows.push({
        recordings: count,
        'node CPU, % of a core': cpuPercent.toFixed(1),
        'CPU per recording, % of a core': ((cpuPercent - baseline) / count).toFixed(2),
        'keeping up (≥ 0.9 s recorded per s)': `${keepingUp} of ${count}`,
        'stop → all Completed, s': stopToCompleted.toFixed(1),
        'uploaded, MB': (bytes / 1e6).toFixed(1),
        Error: done.filter((r) => r.state === 'Error').length,
      });
      for (const id of before.keys()) await api.call(recordingRoutes.delete, { params: { id } });
      await sleep(2000);
    }
    printTable(
      'Recordings of one 2 Mb/s push (tracks copied into fragmented MP4) on loopback: node process tree CPU ' +
        `over ${WINDOW_MS / 1000} s with N recordings at once (baseline: the push alone, HLS packaging); ` +
        'per recording = (CPU − baseline) / N; pace from the recorder’s own 2-second reports; stop → all ' +
        'Completed includes finishing the files and polling the API every 0.2 s',
      rows,
    );
    printTable('The node’s uploader to the local S3 server (s3rver on loopback)', await uploaderRows(s3, dir));
  } finally {
    push?.kill('SIGKILL');
    await node?.stop();
    await server.stop();
    await s3.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
