// Issue 39, `npm run bench -- viewers`: how many viewers of one stream one node serves, and what each costs. One
// 2.5 Mb/s 1280x720 30 fps H.264/AAC clip without B-frames (a keyframe a second) is pushed over RTMP to a real node;
// viewers are added in steps, all in this process:
// - HLS (`BENCH_VIEWERS_HLS`, default 250,500,1000,2000; for each latency of `BENCH_VIEWERS_HLS_LATENCY`, default
//   Standard,Low): each viewer reads the playlist and every new whole segment over its own keep-alive connection, as
//   a player that does not know LL-HLS does (hls-load.mjs);
// - WHEP (`BENCH_VIEWERS_WHEP`, default 25,50,100,200,300): werift viewers offering H.264 and VP8, so the node sends
//   the push's H.264 as it is.
// Per step, after the new viewers settled: over `BENCH_VIEWERS_WINDOW_MS` (15 s) the node's process tree CPU (whole,
// and per viewer above the push alone), the node's RSS, what the viewers received, how many keep up (HLS: no error,
// their newest segment within 2 of the live edge; WHEP: video packets at ≥ 90 % of the rate a lone viewer gets), the
// time to their first segment or video packet, and this process's own CPU (the load generator: where it saturates,
// the limit is the bench's, not the node's). A kind stops at the first step where fewer than 95 % keep up.
import { loadavg } from 'node:os';
import { streamRoutes } from '@streamcloud/contract';
import { whepViewer } from '@streamcloud/whip-client';
import { hlsLoad } from './hls-load.mjs';
import { percentile, printTable } from './lib.mjs';
import { cpuPercentOver, HD_NO_B_FRAMES, sleep, treeRssMb, withLivePush } from './media-lib.mjs';

const counts = (value, fallback) => (value ?? fallback).split(',').filter(Boolean).map(Number);
const HLS_COUNTS = counts(process.env.BENCH_VIEWERS_HLS, '250,500,1000,2000');
const HLS_LATENCIES = (process.env.BENCH_VIEWERS_HLS_LATENCY ?? 'Standard,Low').split(',').filter(Boolean);
const WHEP_COUNTS = counts(process.env.BENCH_VIEWERS_WHEP, '25,50,100,200,300');
const WINDOW_MS = Number(process.env.BENCH_VIEWERS_WINDOW_MS ?? 15_000);
const SETTLE_MS = 5000;
const KEEPING_UP = 0.95;
/** WHEP viewers offering at once (each offer waits for its answer). */
const WHEP_BATCH = 10;

/** `work()`'s result with the node's tree CPU and this process's own over the same window, % of a core. */
async function overWindow(node, work) {
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  const [nodeCpu, result] = await Promise.all([cpuPercentOver(node.pid, WINDOW_MS), work()]);
  const own = process.cpuUsage(ownBefore);
  const benchCpu = ((own.user + own.system) / 1000 / (performance.now() - started)) * 100;
  return { nodeCpu, benchCpu, result };
}

const ms = (values) =>
  values.length === 0 ? '' : `${Math.round(percentile(values, 50))} / ${Math.round(percentile(values, 95))}`;

/** A step's row: what the node spent, per viewer above `baseline` (the push alone). */
function row(kind, count, baseline, { nodeCpu, benchCpu }, node, extra) {
  return {
    viewers: `${kind} × ${count}`,
    ...extra,
    'node CPU %': nodeCpu.toFixed(1),
    'per viewer %': ((nodeCpu - baseline) / count).toFixed(3),
    'node RSS MB': Math.round(treeRssMb([node.pid])),
    'bench CPU %': benchCpu.toFixed(1),
  };
}

/** HLS viewers of a new output of `latency`, in steps; a row per step. */
async function hlsSteps(api, node, streamId, latency, baseline) {
  const output = await api.call(streamRoutes.createOutput, { body: { streamId, format: 'HLS', hlsLatency: latency } });
  const load = hlsLoad(output.connection.uri);
  const rows = [];
  try {
    for (const count of HLS_COUNTS) {
      process.stderr.write(`viewers bench: ${count} HLS (${latency}) viewers\n`);
      const added = load.viewers.length;
      await load.grow(count);
      await sleep(SETTLE_MS);
      const bytesBefore = load.viewers.map((viewer) => viewer.bytes);
      const window = await overWindow(node, () => sleep(WINDOW_MS));
      const edge = Math.max(...load.viewers.map((viewer) => viewer.edgeSeen));
      const keeping = load.viewers.filter((viewer) => !viewer.error && viewer.lastMsn >= edge - 2).length;
      const received = load.viewers.reduce((sum, viewer, index) => sum + viewer.bytes - bytesBefore[index], 0);
      const firsts = load.viewers.slice(added).flatMap((viewer) => viewer.firstSegmentMs ?? []);
      const errors = new Set(load.viewers.flatMap((viewer) => viewer.error ?? []));
      rows.push(
        row(`HLS ${latency}`, count, baseline, window, node, {
          'keeping up': keeping,
          'received Mb/s': ((received * 8) / WINDOW_MS / 1000).toFixed(0),
          'first segment ms (median / p95)': ms(firsts),
          errors: [...errors].slice(0, 2).join('; '),
        }),
      );
      if (keeping < count * KEEPING_UP) break;
    }
  } finally {
    await load.stop();
    await api.call(streamRoutes.deleteOutput, { params: { id: output.id } });
  }
  return rows;
}

/** A WHEP viewer with the time to its first video packet (polled every 50 ms, at most 20 s). */
async function whepWithFirstPacket(url) {
  const started = performance.now();
  const viewer = await whepViewer(url, 'h264+vp8');
  while (viewer.got.video === 0 && performance.now() - started < 20_000) await sleep(50);
  return { viewer, firstPacketMs: viewer.got.video > 0 ? performance.now() - started : null };
}

/** WHEP viewers in steps; a row per step. */
async function whepSteps(api, node, streamId, baseline) {
  const output = await api.call(streamRoutes.createOutput, { body: { streamId, format: 'WebRTC' } });
  const viewers = [];
  const rows = [];
  let loneRate = null;
  try {
    for (const count of WHEP_COUNTS) {
      process.stderr.write(`viewers bench: ${count} WHEP viewers\n`);
      const firsts = [];
      const failures = [];
      while (viewers.length < count) {
        const batch = Math.min(WHEP_BATCH, count - viewers.length);
        const joined = await Promise.allSettled(
          Array.from({ length: batch }, () => whepWithFirstPacket(output.connection.signallingUri)),
        );
        for (const one of joined) {
          if (one.status === 'rejected') failures.push(one.reason.message);
          else {
            viewers.push(one.value.viewer);
            if (one.value.firstPacketMs !== null) firsts.push(one.value.firstPacketMs);
          }
        }
        if (failures.length > count) break;
      }
      await sleep(SETTLE_MS);
      const before = viewers.map((viewer) => viewer.got.video);
      const window = await overWindow(node, () => sleep(WINDOW_MS));
      const rates = viewers.map((viewer, index) => (viewer.got.video - before[index]) / (WINDOW_MS / 1000));
      loneRate ??= percentile(rates, 50);
      const keeping = rates.filter((rate) => rate >= loneRate * 0.9).length;
      rows.push(
        row('WHEP', count, baseline, window, node, {
          'keeping up': keeping,
          'video packets/s (median)': Math.round(percentile(rates, 50)),
          'first packet ms (median / p95)': ms(firsts),
          errors: [...new Set(failures)].slice(0, 2).join('; '),
        }),
      );
      if (keeping < count * KEEPING_UP) break;
    }
  } finally {
    await Promise.allSettled(viewers.map((viewer) => viewer.close()));
    await api.call(streamRoutes.deleteOutput, { params: { id: output.id } });
  }
  return rows;
}

export default function viewersBench() {
  return withLivePush(
    'viewers',
    { clipOptions: HD_NO_B_FRAMES, nodeEnv: { WEBRTC_WARM_FEEDS: '0' } },
    async (world) => {
      const { api, node, stream } = world;
      const baseline = await cpuPercentOver(node.pid, WINDOW_MS);
      const rows = [{ viewers: 'none (the push alone)', 'node CPU %': baseline.toFixed(1) }];
      for (const latency of HLS_LATENCIES) rows.push(...(await hlsSteps(api, node, stream.id, latency, baseline)));
      if (WHEP_COUNTS.length > 0) rows.push(...(await whepSteps(api, node, stream.id, baseline)));
      const load = loadavg()
        .map((value) => value.toFixed(1))
        .join(' ');
      printTable(
        `Viewers of one 720p30 2.5 Mb/s H.264/AAC push on one node (viewers in the bench's process; ${WINDOW_MS / 1000} s ` +
          `per step after ${SETTLE_MS / 1000} s to settle; CPU in % of a core, the node's process tree from /proc; ` +
          `per viewer: above the push alone); load average ${load}`,
        rows,
      );
    },
  );
}
