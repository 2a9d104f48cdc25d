// Issue 39: WebRTC without re-encoding. One 1280x720 30 fps 2.5 Mb/s H.264 stream without B-frames (testsrc2,
// libx264 veryfast CBR, a keyframe a second, AAC) pushed over RTMP to a real media node, one WHEP viewer (werift,
// in this process): the node's process tree CPU (node, nginx, the WHEP feed's ffmpeg) from /proc over
// BENCH_WHEP_SECONDS, and the feed's ffmpeg alone, for three cases one after the other on the same push:
// - no viewer (what the push costs without WebRTC: the baseline);
// - a viewer offering H.264 and VP8 (as browsers do): the node sends the H.264 as it is (Opus made of the AAC);
// - a viewer offering VP8 only: the node re-encodes to VP8 (libvpx), as it did for every viewer before.
// Warm feeds are off (WEBRTC_WARM_FEEDS=0): a feed runs only while its viewer plays.
import { loadavg } from 'node:os';
import { streamRoutes } from '@streamcloud/contract';
import { whepViewer } from '@streamcloud/whip-client';
import { printTable } from './lib.mjs';
import { cpuPercentOver, HD_NO_B_FRAMES, processIds, sleep, treeCpuSeconds, withLivePush } from './media-lib.mjs';

const SECONDS = Number(process.env.BENCH_WHEP_SECONDS ?? 20);

/** Polls `read` every 200 ms until `done(value)`, at most `ms`. */
async function until(read, done, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** The stream's WebRTC feeds as the node's /metadata shows them. */
const feedsOf = async (node, streamId) =>
  (await node.metadata()).streams.find((stream) => stream.id === streamId)?.webrtcFeeds ?? [];

/** The node's CPU (its process tree) and the WHEP feed's ffmpeg's over the window, in % of a core. */
async function measure(node, streamId) {
  // The feed's ffmpeg (RTP out), not the watchdog shell around it (whose command line holds the same arguments).
  const feed = processIds(
    (command) => !command.startsWith('sh ') && command.includes(streamId) && command.includes('-f rtp'),
  )[0];
  const feedBefore = feed ? treeCpuSeconds(feed) : 0;
  const start = Date.now();
  const cpu = await cpuPercentOver(node.pid, SECONDS * 1000);
  const feedCpu = feed ? ((treeCpuSeconds(feed) - feedBefore) / ((Date.now() - start) / 1000)) * 100 : 0;
  return { cpu, feedCpu };
}

export default function whepCpuBench() {
  return withLivePush(
    'whep-cpu',
    { clipOptions: HD_NO_B_FRAMES, nodeEnv: { WEBRTC_WARM_FEEDS: '0' } },
    async (world) => {
      const { api, node, stream } = world;
      const output = await api.call(streamRoutes.createOutput, { body: { streamId: stream.id, format: 'WebRTC' } });
      const rows = [];
      const baseline = await measure(node, stream.id);
      rows.push({
        case: 'no viewer',
        video: '',
        'node CPU, % of a core': baseline.cpu.toFixed(1),
        'feed ffmpeg, %': '',
      });
      for (const [name, offer] of [
        ['viewer offering H.264 + VP8', 'h264+vp8'],
        ['viewer offering VP8 only', 'vp8'],
      ]) {
        process.stderr.write(`whep-cpu bench: ${name}\n`);
        const viewer = await whepViewer(output.connection.signallingUri, offer);
        try {
          await until(
            async () => viewer.got,
            (got) => got.video > 100,
            20_000,
            'the viewer’s video',
          );
          const [feed] = await feedsOf(node, stream.id);
          const { cpu, feedCpu } = await measure(node, stream.id);
          rows.push({
            case: name,
            video: feed ? `${feed.video}${feed.reencoded ? ` (${feed.reencoded})` : ''}` : '?',
            'node CPU, % of a core': cpu.toFixed(1),
            'feed ffmpeg, %': feedCpu.toFixed(1),
          });
        } finally {
          await viewer.close();
        }
        await until(
          () => feedsOf(node, stream.id),
          (feeds) => feeds.length === 0,
          15_000,
          'the feed to stop',
        );
      }
      const load = loadavg()
        .map((value) => value.toFixed(1))
        .join(' ');
      printTable(
        `WHEP: the node's CPU for one 720p30 2.5 Mb/s H.264 stream (no B-frames) with one viewer, ${SECONDS} s ` +
          `per case (its process tree from /proc; the viewer runs in the bench's process); load average ${load}`,
        rows,
      );
    },
  );
}
