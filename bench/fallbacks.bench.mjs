// Issue 18: a slate fallback on a real media node (its default 5 s reconnect grace), with a 1280x720 30 fps
// push (a test pattern, -c copy) watched through its HLS output. Per round the push ends (ffmpeg stopped:
// a clean end, so the grace runs first) and comes back once the slate plays. Measured from the playlist
// (polled every 50 ms; nginx names fragments by the wall-clock time of their first frame):
// - push drop → first fallback segment: from the push's end to the first fragment of the slate listed
//   (goal ≤ grace + 2 s), and when that fragment's first frame reached nginx;
// - push return → first live segment: from the new push's start to its first fragment listed after the
//   discontinuity (goal ≤ 2 s; ffmpeg's connect and the fragment's own 1 s are part of it);
// - the CPU of the node's process tree while the slate plays (its ffmpeg encodes 1280x720 at 30 fps).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fallbackRoutes, streamRoutes } from '@streamcloud/contract';
import { apiClient, printTable, startApi } from './lib.mjs';
import {
  cpuPercentOver,
  makeClip,
  processIds,
  pushClip,
  pushLiveStream,
  redPngDataUri,
  sleep,
  startNode,
  treeCpuSeconds,
} from './media-lib.mjs';

const ROUNDS = Number(process.env.BENCH_FALLBACK_ROUNDS ?? 3);
const GRACE_MS = Number(process.env.BENCH_FALLBACK_GRACE_MS ?? 5000);
const CPU_WINDOW_MS = Number(process.env.BENCH_FALLBACK_CPU_MS ?? 15_000);
const POLL_MS = 50;

/** The fragments of a media playlist in order: name, start (ms, from the name), after a discontinuity. */
function fragments(playlist) {
  const list = [];
  let discontinuity = false;
  for (const line of playlist.split('\n')) {
    if (line.startsWith('#EXT-X-DISCONTINUITY')) discontinuity = true;
    const name = /^(\d{13})\.ts/.exec(line);
    if (name) {
      list.push({ name: line, at: Number(name[1]), discontinuity });
      discontinuity = false;
    }
  }
  return list;
}

/** Polls the playlist until a fragment passes `accept`; answers when it was first seen, and the fragment. */
async function firstFragment(playlistUrl, accept, what, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(playlistUrl);
    if (response.ok) {
      const found = fragments(await response.text()).find(accept);
      if (found) return { seenAt: Date.now(), fragment: found };
    } else await response.body?.cancel();
    await sleep(POLL_MS);
  }
  throw new Error(`no ${what} within ${timeoutMs} ms`);
}

async function waitForStatus(api, id, status, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while ((await api.call(streamRoutes.get, { params: { id } })).status !== status) {
    if (Date.now() > deadline) throw new Error(`the stream did not reach ${status}`);
    await sleep(200);
  }
}

/** The HLS session URL of an output (its first answer is a redirect naming the session). */
async function hlsSession(uri) {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const response = await fetch(uri, { redirect: 'manual' });
    await response.body?.cancel();
    if (response.status === 302) return new URL(response.headers.get('location') ?? '', uri).toString();
    await sleep(200);
  }
  throw new Error('no HLS session');
}

const stopPush = (push) =>
  new Promise((resolve) => {
    push.once('exit', resolve);
    // SIGINT: ffmpeg ends the RTMP publish cleanly (a clean end: the reconnect grace runs first).
    push.kill('SIGINT');
  });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export default async function fallbacksBench() {
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-fallbacks-bench-'));
  const clip = makeClip(dir, { size: '1280x720', rate: 30, kbps: 2500 });
  const server = await startApi('pglite');
  let node;
  let push;
  try {
    const base = server.url;
    const token = await server.login();
    const api = apiClient(base, token);
    node = await startNode(base, token, join(dir, 'node'), { RECONNECT_GRACE_MS: String(GRACE_MS) });
    const idleCpu = await cpuPercentOver(node.pid, 5000);
    let stream;
    ({ stream, push } = await pushLiveStream(base, token, clip, 'fallback bench'));
    const output = await api.call(streamRoutes.createOutput, {
      body: { streamId: stream.id, format: 'HLS', hlsLatency: 'Standard' },
    });
    await api.call(fallbackRoutes.create, {
      body: {
        streamId: stream.id,
        type: 'Slate',
        label: 'Be right back',
        settings: { resources: [{ type: 'DATA_URI', data: redPngDataUri(dir, '1280x720') }] },
      },
    });
    const playlist = await hlsSession(output.connection.uri);
    await firstFragment(playlist, () => true, 'fragment of the push');
    // The slate is prepared while the push is live.
    const deadline = Date.now() + 20_000;
    while (!(await api.call(fallbackRoutes.list, { query: { streamId: stream.id } }))[0]?.message?.startsWith('Ready'))
      if (Date.now() > deadline) throw new Error('the slate was never ready');
      else await sleep(200);
    const pushCpu = await cpuPercentOver(node.pid, CPU_WINDOW_MS);

    const rows = [];
    let slateCpu = null;
    let slateEncoderCpu = null;
    for (let round = 1; round <= ROUNDS; round++) {
      await stopPush(push);
      const dropped = Date.now();
      if (process.env.BENCH_MEDIA_DEBUG) process.stderr.write(`${new Date(dropped).toISOString()} push ended\n`);
      const slate = await firstFragment(playlist, (f) => f.at > dropped, 'fragment of the slate');
      await waitForStatus(api, stream.id, 'Fallback');
      if (slateCpu === null) {
        await sleep(2000);
        const encoder = processIds((command) => command.includes('fallback=') && command.includes('ffmpeg'))[0];
        const encoderBefore = encoder ? treeCpuSeconds(encoder) : 0;
        const started = Date.now();
        slateCpu = await cpuPercentOver(node.pid, CPU_WINDOW_MS);
        if (encoder)
          slateEncoderCpu = ((treeCpuSeconds(encoder) - encoderBefore) / ((Date.now() - started) / 1000)) * 100;
      } else await sleep(3000);
      const returning = Date.now();
      if (process.env.BENCH_MEDIA_DEBUG) process.stderr.write(`${new Date(returning).toISOString()} push again\n`);
      push = pushClip(clip, stream.connection.uri);
      const live = await firstFragment(playlist, (f) => f.at >= returning && f.discontinuity, 'live fragment');
      await waitForStatus(api, stream.id, 'Ingestion');
      rows.push({
        round,
        'drop → slate fragment listed, ms': slate.seenAt - dropped,
        'drop → slate first frame at nginx, ms': slate.fragment.at - dropped,
        'return → live fragment listed, ms': live.seenAt - returning,
        'return → live first frame at nginx, ms': live.fragment.at - returning,
      });
      await sleep(3000);
    }
    const column = (name) => rows.map((row) => row[name]);
    rows.push({
      round: 'median / max',
      ...Object.fromEntries(
        Object.keys(rows[0])
          .filter((key) => key !== 'round')
          .map((key) => [key, `${median(column(key))} / ${Math.max(...column(key))}`]),
      ),
    });
    printTable(
      `Slate takeover and return (1280x720 30 fps push, reconnect grace ${GRACE_MS} ms; goals: drop → slate ≤ ` +
        `${GRACE_MS + 2000} ms, return → live ≤ 2000 ms), playlist polled every ${POLL_MS} ms`,
      rows,
    );
    printTable(`Node process tree CPU, % of a core, over ${CPU_WINDOW_MS / 1000} s`, [
      { state: 'no stream', 'node CPU': idleCpu.toFixed(1) },
      { state: 'push live (HLS packaging)', 'node CPU': pushCpu.toFixed(1) },
      {
        state: 'slate playing (1280x720 30 fps)',
        'node CPU': slateCpu?.toFixed(1),
        "slate's ffmpeg": slateEncoderCpu?.toFixed(1) ?? 'not found',
      },
    ]);
  } finally {
    push?.kill('SIGKILL');
    await node?.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
