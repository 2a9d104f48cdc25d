// Issue 36: a Low latency (LL-HLS) output's CPU per stream, against a Standard one. One 1280x720 30 fps 2.5 Mb/s
// H.264 (B-frames) / AAC push over RTMP to a real media node; the node's process tree CPU (node, nginx, packaging
// ffmpegs) from /proc over BENCH_LL_CPU_SECONDS, with (a) a Standard HLS output only (nginx-rtmp's TS, always on),
// (b) a Low latency output only, for each way of making its fMP4: the node's in-process RTMP play + FLV→fMP4 remuxer
// (LL_HLS_REMUX=on) and a packaging ffmpeg (LL_HLS_REMUX=off, the default). Each mode is a node of its own, one after
// the other, back to back; no viewer (what packaging costs, not serving).
import { loadavg } from 'node:os';
import { streamRoutes } from '@streamcloud/contract';
import { printTable } from './lib.mjs';
import { cpuPercentOver, sleep, withLivePush } from './media-lib.mjs';

const SECONDS = Number(process.env.BENCH_LL_CPU_SECONDS ?? 20);
const CLIP = { size: '1280x720', rate: 30, kbps: 2500, bFrames: true };

/** The stream's LL-HLS variants as the node's /metadata shows them, once packaged (their codecs known). */
async function packagedVariants(node, streamId) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const stream = (await node.metadata()).streams.find((each) => each.id === streamId);
    const variants = stream?.pipelines?.['LL-HLS packager']?.variants ?? [];
    if (variants.length > 0 && variants.every((variant) => variant.codecs)) return variants;
    if (Date.now() > deadline) throw new Error('the LL-HLS packaging did not start');
    await sleep(300);
  }
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

export default async function llHlsCpuBench() {
  const rows = [];
  for (const remux of ['on', 'off']) {
    await withLivePush('ll-hls-cpu', { clipOptions: CLIP, nodeEnv: { LL_HLS_REMUX: remux } }, async (world) => {
      const { api, node, stream } = world;
      const create = (hlsLatency) =>
        api.call(streamRoutes.createOutput, { body: { streamId: stream.id, format: 'HLS', hlsLatency } });
      const standard = await create('Standard');
      await sleep(2000);
      process.stderr.write(`ll-hls-cpu bench: Standard (LL_HLS_REMUX=${remux})\n`);
      rows.push({
        case: `Standard only (node with LL_HLS_REMUX=${remux})`,
        input: '',
        'node CPU, % of a core': (await cpuPercentOver(node.pid, SECONDS * 1000)).toFixed(1),
        'load average': load(),
      });
      await api.call(streamRoutes.deleteOutput, { params: { id: standard.id } });
      await create('Low');
      const variants = await packagedVariants(node, stream.id);
      // Settled: the packaging's start (probe, first GOP) is not what a stream costs while it runs.
      await sleep(3000);
      process.stderr.write(`ll-hls-cpu bench: Low (LL_HLS_REMUX=${remux})\n`);
      rows.push({
        case: 'Low latency only',
        input: variants.map((variant) => variant.input).join(', '),
        'node CPU, % of a core': (await cpuPercentOver(node.pid, SECONDS * 1000)).toFixed(1),
        'load average': load(),
      });
    });
  }
  printTable(`LL-HLS CPU: the node's process tree for one 720p30 2.5 Mb/s H.264/AAC push, ${SECONDS} s per case`, rows);
}
