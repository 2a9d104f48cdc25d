// Issue 41, defect 5: WHEP and WHIP offers that never connect, flooded at one media node again and again.
// A live RTMP push (small clip) with WebRTC outputs, and Public WebRTC streams; each round sends FLOOD offers
// (real SDP offers, never connected: the client's peer connection is dropped at once), half WHEP and half WHIP,
// from ADDRESSES loopback addresses (127.0.0.2…) plus one address alone sending as many as the rest together,
// and reports the node's open file descriptors and resident memory before the floods, right after each flood
// (its sessions pending) and once they were dropped (the connect timeout passed), with the answers counted:
// 201 (accepted), 429 (bounded: per address and per output), others. The memory must stay flat across rounds
// and the descriptors come back to where they were. Fails (exit code 1) when they do not.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamRoutes } from '@streamcloud/contract';
import { offerSdp, postOffer } from '@streamcloud/whip-client';
import { apiClient, printTable, startApi } from './lib.mjs';
import { makeClip, pushLiveStream, sleep, startNode } from './media-lib.mjs';

const ROUNDS = Number(process.env.BENCH_OFFERS_ROUNDS ?? 4);
const FLOOD = Number(process.env.BENCH_OFFERS_FLOOD ?? 240);
const ADDRESSES = Number(process.env.BENCH_OFFERS_ADDRESSES ?? 24);
const OUTPUTS = 4;
const CONCURRENCY = 16;
/** The node drops a session whose connection is not up within 20 s (src/front-ends/webrtc/endpoint.ts); a little more. */
const SETTLE_MS = Number(process.env.BENCH_OFFERS_SETTLE_MS ?? 24_000);
/** Growth of the resident memory from the first round's end to the last's beyond which the bench fails. */
const RSS_GROWTH_LIMIT_MB = 15;

/** The node's open file descriptors and resident memory (MB). */
function processFigures(pid) {
  const fds = readdirSync(`/proc/${pid}/fd`).length;
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  return { fds, rss };
}

/** Sends `jobs` (functions answering a status) CONCURRENCY at a time; counts the statuses. */
async function run(jobs) {
  const counts = { 201: 0, 429: 0, other: 0 };
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < jobs.length) {
        const status = await jobs[next++]();
        if (status === 201 || status === 429) counts[status]++;
        else counts.other++;
      }
    }),
  );
  return counts;
}

export default async function offersBench() {
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-offers-bench-'));
  const clip = makeClip(dir, { size: '320x180', rate: 15, kbps: 300 });
  const server = await startApi('pglite');
  let node;
  let push;
  try {
    const token = await server.login();
    const api = apiClient(server.url, token);
    node = await startNode(server.url, token, join(dir, 'node'));
    const live = await pushLiveStream(server.url, token, clip, 'offers bench');
    push = live.push;
    const whep = [];
    for (let i = 0; i < OUTPUTS; i++) {
      const output = await api.call(streamRoutes.createOutput, {
        body: { streamId: live.stream.id, format: 'WebRTC' },
      });
      whep.push(output.connection.signallingUri);
    }
    const whip = [];
    for (let i = 0; i < OUTPUTS; i++) {
      const stream = await api.call(streamRoutes.create, { body: { format: 'WebRTC', output: { passthrough: true } } });
      whip.push(stream.connection.signallingUri);
    }
    const offers = { whep: await offerSdp('recvonly'), whip: await offerSdp('sendonly') };
    const jobsOfRound = () => {
      const jobs = [];
      for (let i = 0; i < FLOOD; i++) {
        const kind = i % 2 === 0 ? 'whep' : 'whip';
        const url = (kind === 'whep' ? whep : whip)[Math.floor(i / 2) % OUTPUTS];
        jobs.push(async () => (await postOffer(url, offers[kind], `127.0.0.${2 + (i % ADDRESSES)}`)).status);
      }
      // One address alone, as many offers again.
      for (let i = 0; i < FLOOD; i++) {
        const kind = i % 2 === 0 ? 'whep' : 'whip';
        jobs.push(
          async () => (await postOffer((kind === 'whep' ? whep : whip)[0], offers[kind], '127.0.0.200')).status,
        );
      }
      return jobs;
    };

    await sleep(2000);
    const rows = [];
    const start = processFigures(node.pid);
    rows.push({ round: 'before', phase: 'idle', fds: start.fds, 'RSS MB': start.rss.toFixed(1), answers: '' });
    const ends = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const counts = await run(jobsOfRound());
      const during = processFigures(node.pid);
      rows.push({
        round,
        phase: 'flood',
        fds: during.fds,
        'RSS MB': during.rss.toFixed(1),
        answers: `201 ${counts[201]}, 429 ${counts[429]}, other ${counts.other}`,
      });
      await sleep(SETTLE_MS);
      const after = processFigures(node.pid);
      ends.push(after);
      rows.push({ round, phase: 'settled', fds: after.fds, 'RSS MB': after.rss.toFixed(1), answers: '' });
    }
    printTable(
      `WHEP/WHIP offer floods (${FLOOD} from ${ADDRESSES} addresses + ${FLOOD} from one, never connected, ${ROUNDS} rounds)`,
      rows,
    );
    const last = ends[ends.length - 1];
    const growth = last.rss - ends[0].rss;
    const fdsBack = last.fds <= start.fds + 4;
    console.log(
      `RSS from the first round's end to the last's: ${growth >= 0 ? '+' : ''}${growth.toFixed(1)} MB (limit +${RSS_GROWTH_LIMIT_MB}); fds ${start.fds} before, ${last.fds} after`,
    );
    if (growth > RSS_GROWTH_LIMIT_MB || !fdsBack) process.exitCode = 1;
  } finally {
    push?.kill('SIGKILL');
    await node?.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
