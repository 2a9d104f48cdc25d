// Issue 39, `npm run bench -- density`: how many passthrough streams one node takes, and what each costs. N copies of
// a 2.5 Mb/s 1280x720 30 fps H.264/AAC clip (a keyframe a second) are pushed over RTMP at once — their publishes
// started within one second — to a real node, each stream with a Standard HLS output, from one light publisher in a
// process of its own (publisher-process.mjs, rtmp-publisher.mjs: ffmpeg pushers would cost about as much as the
// node's own work per stream). Per N:
// publish → every stream Ingestion as the API lists it (goal: 200 within 3 s, none refused), and its tracks known (the
// node probes a wave's first fragments a few at a time); then, once settled, the
// node's CPU over a window, whole and by part (its own Node.js process, nginx-rtmp, the rest of its tree), per stream
// (goal ≤ 0.35 % of a core), its RSS, and whether every stream is healthy: its HLS playlist advanced over the window.
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { streamRoutes } from '@streamcloud/contract';
import { apiClient, printTable } from './lib.mjs';
import { makeClip, processIds, sleep, treeCpuSeconds, treeRssMb, withNodeWorld } from './media-lib.mjs';

const COUNTS = (process.env.BENCH_DENSITY_COUNTS ?? '50,100,200').split(',').map(Number);
const CPU_WINDOW_MS = Number(process.env.BENCH_DENSITY_CPU_WINDOW_MS ?? 20_000);
const LIVE_TIMEOUT_MS = 60_000;
/** Every stream's tracks known: a wave's probes take a while (two at a time, ~0.1 s of a core each). */
const TRACKS_TIMEOUT_MS = 180_000;
const TICKS_PER_SECOND = 100;

/** CPU seconds of one process alone (not its children). */
function ownCpuSeconds(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/** The parent of a process (Linux /proc); 0 when it ended. */
function parentOf(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return 0;
  }
}

/** The nginx processes in the node's tree (its master and workers). */
function nginxOf(nodePid) {
  const inTree = (pid) => {
    for (let cursor = pid, depth = 0; cursor > 1 && depth < 16; depth++, cursor = parentOf(cursor))
      if (cursor === nodePid) return true;
    return false;
  };
  return processIds((command) => command.startsWith('nginx')).filter(inTree);
}

/** Every stream's HLS playlist: its media sequence and its last fragment, or null when it has none. */
async function playlistMarks(outputs) {
  return Promise.all(
    outputs.map(async (output) => {
      try {
        const response = await fetch(output.connection.uri);
        if (!response.ok) return null;
        const text = await response.text();
        return (
          text
            .split('\n')
            .filter((line) => line.endsWith('.ts') || line.includes('.ts?'))
            .at(-1) ?? null
        );
      } catch {
        return null;
      }
    }),
  );
}

/** When every stream's incoming tracks were known (ms after `startedAt`), polled; null when not within the timeout. */
async function allTracksKnown(api, streams, startedAt) {
  let unknown = streams.map((stream) => stream.id);
  while (Date.now() - startedAt < TRACKS_TIMEOUT_MS) {
    const known = await Promise.all(
      unknown.map(async (streamId) => {
        const tracks = await api.call(streamRoutes.streamInfo, { params: { streamId, type: 'incoming' } });
        return tracks.length > 0;
      }),
    );
    unknown = unknown.filter((_, index) => !known[index]);
    if (unknown.length === 0) return Date.now() - startedAt;
    await sleep(1000);
  }
  return null;
}

/** The publisher's process (publisher-process.mjs): `publishAll` answers every push's outcome, in order. */
function startPublisher(clip) {
  const child = fork(new URL('./publisher-process.mjs', import.meta.url), [clip], { stdio: 'inherit' });
  return {
    pid: child.pid,
    publishAll(uris, spreadMs) {
      return new Promise((resolve, reject) => {
        const results = new Array(uris.length);
        let answered = 0;
        child.on('message', ({ index, ...result }) => {
          results[index] = result;
          if (++answered === uris.length) resolve(results);
        });
        child.once('exit', (code) => reject(new Error(`the publisher exited (${code})`)));
        child.send({ uris, spreadMs });
      });
    },
    stop() {
      if (child.connected) child.disconnect();
    },
  };
}

async function round(base, token, node, clip, count) {
  const api = apiClient(base, token);
  const streams = [];
  const outputs = [];
  for (let index = 0; index < count; index++) {
    const stream = await api.call(streamRoutes.create, {
      body: { format: 'RTMP', output: { passthrough: true }, caption: `density ${count} #${index}` },
    });
    streams.push(stream);
    outputs.push(
      await api.call(streamRoutes.createOutput, {
        body: { streamId: stream.id, format: 'HLS', hlsLatency: 'Standard' },
      }),
    );
  }
  const publisher = startPublisher(clip);
  try {
    // Every publish starts within one second, as a wave of encoders after an outage would.
    const startedAt = Date.now();
    const results = await publisher.publishAll(
      streams.map((stream) => stream.connection.uri),
      1000,
    );
    const refused = results.filter((result) => result.error);
    // When the node's nginx said NetStream.Publish.Start to the last of them: the node's own admission.
    const admitted = results.filter((result) => !result.error).map((result) => result.startedAt);
    const lastAdmittedMs = admitted.length > 0 ? Math.max(...admitted) - startedAt : null;
    const ids = new Set(streams.map((stream) => stream.id));
    let allLiveMs = null;
    while (Date.now() - startedAt < LIVE_TIMEOUT_MS) {
      const listed = await api.call(streamRoutes.list, { query: { limit: 200, offset: 0 } });
      const live = listed.filter((stream) => ids.has(stream.id) && stream.status === 'Ingestion').length;
      if (live === count) {
        allLiveMs = Date.now() - startedAt;
        break;
      }
      await sleep(100);
    }
    // Settled: every push's tracks known (the node probes a wave's first fragments a few at a time), then 5 s.
    const tracksKnownMs = await allTracksKnown(api, streams, startedAt);
    await sleep(5000);
    const nginx = nginxOf(node.pid);
    const before = {
      tree: treeCpuSeconds(node.pid),
      node: ownCpuSeconds(node.pid),
      nginx: nginx.reduce((sum, pid) => sum + ownCpuSeconds(pid), 0),
      publisher: ownCpuSeconds(publisher.pid),
    };
    const marks = await playlistMarks(outputs);
    const windowStart = Date.now();
    await sleep(CPU_WINDOW_MS);
    const seconds = (Date.now() - windowStart) / 1000;
    const tree = (treeCpuSeconds(node.pid) - before.tree) / seconds;
    const own = (ownCpuSeconds(node.pid) - before.node) / seconds;
    const nginxCpu = (nginx.reduce((sum, pid) => sum + ownCpuSeconds(pid), 0) - before.nginx) / seconds;
    const publisherCpu = (ownCpuSeconds(publisher.pid) - before.publisher) / seconds;
    const after = await playlistMarks(outputs);
    const healthy = after.filter((mark, index) => mark !== null && mark !== marks[index]).length;
    const percent = (share) => `${(share * 100).toFixed(1)} %`;
    return {
      streams: count,
      refused: refused.length,
      'all publishing after, ms': lastAdmittedMs,
      'all Ingestion after, ms': allLiveMs ?? `not in ${LIVE_TIMEOUT_MS}`,
      'all tracks known after, ms': tracksKnownMs ?? `not in ${TRACKS_TIMEOUT_MS}`,
      'healthy (playlist advanced)': `${healthy} of ${count}`,
      'node CPU, % of a core': percent(tree),
      'per stream': `${((tree / count) * 100).toFixed(2)} %`,
      'its Node.js process': percent(own),
      nginx: percent(nginxCpu),
      'rest of its tree': percent(tree - own - nginxCpu),
      'node RSS, MB': Math.round(treeRssMb([node.pid])),
      'nginx RSS, MB': Math.round(treeRssMb(nginx)),
      'publisher CPU, % of a core': percent(publisherCpu),
      ...(refused.length > 0 ? { 'first refusal': refused[0].error.slice(0, 120) } : {}),
    };
  } finally {
    publisher.stop();
    for (const stream of streams) await api.call(streamRoutes.delete, { params: { id: stream.id } }).catch(() => {});
  }
}

export default async function densityBench() {
  await withNodeWorld('density', async ({ dir, base, token, node }) => {
    const clip = makeClip(dir, { size: '1280x720', rate: 30, kbps: 2400, bFrames: false });
    const rows = [];
    for (const count of COUNTS) {
      process.stderr.write(`density bench: ${count} streams\n`);
      rows.push(await round(base, token, node, clip, count));
      // The node lets go of the deleted streams before the next round.
      await sleep(5000);
    }
    printTable(
      `Passthrough density: N RTMP pushes of a 2.5 Mb/s 720p30 clip started within 1 s, each with a Standard HLS ` +
        `output (goals: 200 all Ingestion within 3 s, ≤ 0.35 % of a core per stream); CPU over ` +
        `${CPU_WINDOW_MS / 1000} s once settled; load average ${loadavg()
          .map((value) => value.toFixed(1))
          .join(' ')}`,
      rows,
    );
  });
}
