// Issue 36: glass-to-glass latency as a viewer feels it. ffmpeg pushes a live 640x360 30 fps test pattern
// (libx264 zerolatency, 1 s GOP) over RTMP to a real media node, each frame carrying the wall-clock time it
// was made as a time code in the picture (bench/time-code.mjs); the stream dashboard's Preview card plays an
// output in Chromium, and on every frame it presents the page reads the code and notes display time − code
// (one machine, one clock). Per case, for BENCH_LATENCY_SECONDS after the first frame: median, p95 and the
// frames read, what the player held buffered past the frame it showed (HLS: the player's share of the
// latency), and the serving node's CPU (its process tree) over the same window, one stream on it.
// - Cases: WHEP (the node's VP8 feed), HLS Standard (nginx-rtmp's MPEG-TS) and HLS Low (the node's LL-HLS
//   packager), on the origin, then the same through an edge node (an Outgoing group; BENCH_LATENCY_EDGE=0
//   skips it). Each case has its own output, deleted after it, so the node packages only what it serves.
// - BENCH_LATENCY_CASES picks cases by key (`whep,standard,low`; default all). BENCH_LATENCY_LADDER=1 transcodes
//   the push to a 2-rendition ladder (640x360, 320x180): HLS plays its master, and through an edge each variant
//   is pulled and (Low) packaged there.
// - Goals (issue 36): LL-HLS median ≤ 1.2 s and p95 ≤ 1.5 s; WHEP median ≤ 0.3 s. Exit code 1 when missed.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeGroupRoutes, streamRoutes } from '@streamcloud/contract';
import { chromium } from 'playwright-core';
import { ensureConsoleBuilt } from '../scripts/lib.mjs';
import { apiClient, CHROMIUM, percentile, pickPreviewOutput, printTable, signedInContext, startApi } from './lib.mjs';
import { cpuPercentOver, liveStream, sleep, startNode } from './media-lib.mjs';
import { pushTimeCoded, timeCodeReaderScript } from './time-code.mjs';

const SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 60);
const WITH_EDGE = process.env.BENCH_LATENCY_EDGE !== '0';
const WANTED = process.env.BENCH_LATENCY_CASES?.split(',').map((key) => key.trim()) ?? null;
const h264 = (width, height, kbps) => ({
  type: 'H264',
  width,
  height,
  framerate: 30,
  settings: { bitrate: kbps, speedPreset: 'veryfast', tune: 'zerolatency', keyIntMax: 0 },
});
/** BENCH_LATENCY_LADDER=1: the stream's transcode tracks. */
const LADDER =
  process.env.BENCH_LATENCY_LADDER === '1'
    ? [h264(640, 360, 800), h264(320, 180, 300), { type: 'AAC', rate: 48000, channels: 2, settings: { bitrate: 128 } }]
    : null;
const FIRST_FRAME_TIMEOUT_MS = 30_000;

/** What each case creates (the output's body past streamId), and the goals on its latency in ms. */
const CASES = [
  { key: 'whep', name: 'WHEP', body: { format: 'WebRTC' }, kind: 'WHEP', goals: { median: 300 } },
  { key: 'standard', name: 'HLS Standard', body: { format: 'HLS', hlsLatency: 'Standard' }, kind: 'HLS', goals: {} },
  {
    key: 'low',
    name: 'LL-HLS (Low)',
    body: { format: 'HLS', hlsLatency: 'Low' },
    kind: 'HLS',
    goals: { median: 1200, p95: 1500 },
  },
].filter((testCase) => WANTED === null || WANTED.includes(testCase.key));

/** An edge: a node in a new Outgoing group, so outputs created from now on are served by it. */
async function startEdge(api, base, token, dir) {
  const edge = await startNode(base, token, join(dir, 'edge'), {}, 'edge');
  const group = await api.call(nodeGroupRoutes.create, {
    body: { name: 'edges', assignment: 'Outgoing', ownerId: 'NONE' },
  });
  await api.call(nodeGroupRoutes.attachNode, { params: { id: group.id, nodeId: edge.id } });
  return edge;
}

/** Opens the dashboard with the time-code reader and plays `outputId` in the Preview card. */
async function openPreview(context, dashboardUrl, outputId, kind) {
  const page = await context.newPage();
  await page.addInitScript({ content: timeCodeReaderScript() });
  await page.goto(dashboardUrl);
  await pickPreviewOutput(page, outputId, FIRST_FRAME_TIMEOUT_MS);
  await page.waitForFunction((wanted) => window.__timeCode.frames.some((frame) => frame.kind === wanted), kind, {
    timeout: FIRST_FRAME_TIMEOUT_MS,
  });
  return page;
}

/** One case: its output made, played for the window (the serving node's CPU meanwhile), then deleted. */
async function measure(api, context, { streamId, dashboardUrl, node }, testCase) {
  const output = await api.call(streamRoutes.createOutput, { body: { streamId, ...testCase.body } });
  let page;
  try {
    page = await openPreview(context, dashboardUrl, output.id, testCase.kind);
    const cpu = await cpuPercentOver(node.pid, SECONDS * 1000);
    const { frames, unread, stalls } = await page.evaluate(() => window.__timeCode);
    const played = frames.filter((frame) => frame.kind === testCase.kind);
    const latencies = played.map((frame) => frame.latency);
    const ahead = played.map((frame) => frame.ahead).filter((value) => value !== null);
    // When each stall came (the frames played before it): at the start, or in the minute.
    const stalledAfter = stalls.map((stall) => stall.afterFrames);
    return { servedBy: output.node?.name ?? '?', latencies, ahead, unread, stalledAfter, cpu };
  } finally {
    await page?.close();
    await api.call(streamRoutes.deleteOutput, { params: { id: output.id } });
    // The node lets go of what the output needed (a WHEP feed, a packager) before the next case starts.
    await sleep(2000);
  }
}

const ms = (value) => (Number.isFinite(value) ? Math.round(value) : '');

/** The goals a result misses, as text. */
function missedGoals({ goals }, median, p95) {
  const missed = [];
  if (goals.median !== undefined && !(median <= goals.median)) missed.push(`median > ${goals.median}`);
  if (goals.p95 !== undefined && !(p95 <= goals.p95)) missed.push(`p95 > ${goals.p95}`);
  return missed;
}

/** A table row for a case's result (or its failure). */
function row(testCase, where, result) {
  const goal = Object.entries(testCase.goals)
    .map(([name, value]) => `${name} ≤ ${value}`)
    .join(', ');
  if (result.error) return { case: testCase.name, node: where, goal, error: result.error };
  const median = percentile(result.latencies, 50);
  const p95 = percentile(result.latencies, 95);
  const missed = missedGoals(testCase, median, p95);
  return {
    case: testCase.name,
    node: `${where} (${result.servedBy})`,
    'median ms': ms(median),
    'p95 ms': ms(p95),
    'min / max ms': `${ms(Math.min(...result.latencies))} / ${ms(Math.max(...result.latencies))}`,
    'buffered ahead ms (median)': ms(percentile(result.ahead, 50)),
    'frames read': result.latencies.length,
    unread: result.unread,
    'stalls (after frame)':
      result.stalledAfter.length === 0 ? 0 : `${result.stalledAfter.length} (${result.stalledAfter.join(', ')})`,
    'node CPU, % of a core': result.cpu.toFixed(1),
    goal,
    met: goal === '' ? '' : missed.length === 0 ? 'yes' : `no: ${missed.join(', ')}`,
  };
}

/** Every case served by `node`: a row each; a case that fails is a row with its error. */
async function measureAll(api, context, target, where) {
  const rows = [];
  for (const testCase of CASES) {
    process.stderr.write(`latency bench: ${testCase.name} on the ${where}\n`);
    const result = await measure(api, context, target, testCase).catch((error) => ({ error: error.message }));
    rows.push(row(testCase, where, result));
  }
  return rows;
}

export default async function latencyBench() {
  ensureConsoleBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-latency-bench-'));
  const server = await startApi('pglite');
  const nodes = [];
  let push;
  let browser;
  try {
    const token = await server.login();
    const api = apiClient(server.url, token);
    nodes.push(await startNode(server.url, token, join(dir, 'origin'), {}, 'origin'));
    let stream;
    ({ stream, push } = await liveStream(server.url, token, 'latency bench', pushTimeCoded, LADDER));
    browser = await chromium.launch(CHROMIUM);
    const context = await signedInContext(browser, server.url);
    const target = { streamId: stream.id, dashboardUrl: `${server.url}/#/streams/view/${stream.id}` };

    const rows = await measureAll(api, context, { ...target, node: nodes[0] }, 'origin');
    if (WITH_EDGE) {
      nodes.push(await startEdge(api, server.url, token, dir));
      rows.push(...(await measureAll(api, context, { ...target, node: nodes[1] }, 'edge')));
    }
    const load = loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
    printTable(
      `Glass-to-glass latency: a frame's display time in the console's Preview (Chromium) − the wall-clock ` +
        `time drawn into it at the encoder (ffmpeg -re, 640x360 30 fps, libx264 zerolatency, 1 s GOP, RTMP` +
        `${LADDER ? '; transcoded to a 640x360 + 320x180 ladder' : ''}); ` +
        `${SECONDS} s per case after the first frame; node CPU of the serving node's process tree, one ` +
        `stream; load average ${load}`,
      rows,
    );
    const failed = rows.filter((one) => one.error || one.met?.startsWith('no'));
    for (const one of failed)
      process.stderr.write(`latency bench: ${one.case} on the ${one.node}: ${one.error ?? one.met}\n`);
    if (failed.length > 0) process.exitCode = 1;
  } finally {
    await browser?.close();
    push?.kill('SIGKILL');
    for (const node of nodes.reverse()) await node.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
