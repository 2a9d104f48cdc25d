import type { StreamStatisticsResponse, StreamUsage } from '@streamcloud/contract';
import type { ControlPlane } from '../harness.js';
import { sleep } from '../harness.js';
import type { Workload } from './workload.js';
import { type Encoder, seconds, type WhipSession } from './world.js';

/**
 * The billing check of the chaos run: each stream's billed incoming and outgoing bytes (the statistics API, once the
 * nodes' last reports are in) against what the run's own pushers, viewers and relay receiver exchanged with the
 * nodes (counted at their end: `Encoder.bytes`, `EdgeWorld.bytes`, `RelayedWorld.bytes`).
 *
 * What the node may bill short, and why it is allowed: a node killed with -9 loses the usage it counted since its
 * journal's last write (`USAGE_JOURNAL_INTERVAL_MS`, 0.25 s) and what its sockets held, so each kill of the node
 * metering a count may take up to `lossPerKillSeconds` of that stream's bytes from its bill. Nothing may be billed over the count by more than 1 %:
 * a report replayed after a restart or a cut and billed twice would show there. Internode traffic (the edge's pull)
 * is not compared: no client of the run sees it (edge.test.ts checks both nodes bill the same internode bytes).
 */

/** Something the run counted for a stream: its push, or what a node sent its viewers or relays. */
export interface Counted {
  streamId: string;
  direction: Direction;
  /** Bytes both ways, as the run counted them at its end. */
  bytes(): number;
  /** The node that meters it. */
  node: NodeName;
  /**
   * How much of its last seconds a kill of that node may take from the bill (1 s: the journal's quarter second and
   * what the sockets held; more for a protocol whose sender notices the node's death later).
   */
  lossPerKillSeconds: number;
}

export type NodeName = 'origin' | 'edge';

export interface BillingVerdict {
  lines: string[];
  /** The counts billed outside their bounds (empty: the bill holds). */
  failures: string[];
}

/** Over the count by at most this share; under it by this share and what the kills may take. */
export const BILLING_TOLERANCE = 0.01;

export type Direction = 'incoming' | 'outgoing';

/** A stream's usage since `from`, as the statistics API bills it (undefined: none). */
async function usageOf(plane: ControlPlane, streamId: string, from: Date): Promise<StreamUsage | undefined> {
  // Usage is counted per hour: a window from an hour before the run to an hour after covers all of it.
  const start = new Date(from.getTime() - 3600_000).toISOString();
  const end = new Date(Date.now() + 3600_000).toISOString();
  const answer = await plane.api<StreamStatisticsResponse>(
    'GET',
    `/statistics/stream/${streamId}/from/${start}/to/${end}`,
  );
  if (answer.status !== 200) throw new Error(`statistics of ${streamId}: ${answer.status}`);
  return answer.body.streams[0];
}

/** The bytes billed to a stream since `from` (both ways: what the peers sent the node and what it sent them). */
async function billed(plane: ControlPlane, streamId: string, from: Date): Promise<Record<Direction, number>> {
  const usage = await usageOf(plane, streamId, from);
  const sum = (rows: Array<{ upload: number; download: number }> = []) =>
    rows.reduce((total, row) => total + row.upload + row.download, 0);
  return { incoming: sum(usage?.incoming), outgoing: sum(usage?.outgoing) };
}

/**
 * A WHIP push's story, session by session: each publication (from the run's start) with what its sender sent, the
 * bill of the node's push session that began with it (up to 10 s after the node answered the offer), and how it
 * ended. A publication billed nothing is one the node ended before it became a push, or never counted.
 */
export async function whipSessionsLine(
  plane: ControlPlane,
  stream: { streamId: string; caption: string },
  from: Date,
  sessions: WhipSession[],
): Promise<string> {
  const rows = (await usageOf(plane, stream.streamId, from))?.incoming ?? [];
  const unmatched = [...rows];
  const told = sessions.map((session) => {
    const index = unmatched.findIndex((row) => {
      const started = Date.parse(row.started);
      return started >= session.answeredAt - 2000 && started <= session.answeredAt + 10_000;
    });
    const row = index >= 0 ? unmatched.splice(index, 1)[0] : undefined;
    const bill = row ? `billed ${row.upload + row.download} B` : 'billed nothing';
    return `+${seconds(session.answeredAt - from.getTime())} sent ${session.bytes} B, ${bill}, ended: ${session.ended}`;
  });
  const others = unmatched.length > 0 ? `; billed sessions with no publication: ${unmatched.length}` : '';
  return `${stream.caption} sessions (${sessions.length} published, ${rows.length} billed): ${told.join('; ')}${others}`;
}

/**
 * Waits until the bill stops changing (every stream's the same for `settleMs`, longer than a node's report
 * interval: the nodes' last reports are in), at most `timeoutMs`; answers each stream's bill then.
 */
export async function settledBills(
  plane: ControlPlane,
  streamIds: string[],
  from: Date,
  settleMs: number,
  timeoutMs: number,
): Promise<Array<Record<Direction, number>>> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  let sameSince = Date.now();
  for (;;) {
    const bills = await Promise.all(streamIds.map((streamId) => billed(plane, streamId, from)));
    const now = JSON.stringify(bills);
    if (now !== last) {
      last = now;
      sameSince = Date.now();
    } else if (Date.now() - sameSince >= settleMs || Date.now() > deadline) return bills;
    await sleep(1000);
  }
}

/**
 * Each stream's bill against the run's counts, over `runSeconds` (a kill's allowance: its seconds of the count's
 * average rate), with `kills` of each node.
 */
export function judgeBills(
  streams: Array<{ streamId: string; caption: string }>,
  counted: Counted[],
  bills: Array<Record<Direction, number>>,
  kills: Record<NodeName, number>,
  runSeconds: number,
): BillingVerdict {
  const lines: string[] = [];
  const failures: string[] = [];
  streams.forEach(({ streamId, caption }, index) => {
    for (const direction of ['incoming', 'outgoing'] as const) {
      const counts = counted.filter((each) => each.streamId === streamId && each.direction === direction);
      const count = counts.reduce((sum, each) => sum + each.bytes(), 0);
      const killAllowance = counts.reduce(
        (sum, each) => sum + (kills[each.node] * each.lossPerKillSeconds * each.bytes()) / Math.max(1, runSeconds),
        0,
      );
      const got = bills[index]?.[direction] ?? 0;
      if (count === 0 && got === 0) continue;
      const low = count * (1 - BILLING_TOLERANCE) - killAllowance;
      const high = count * (1 + BILLING_TOLERANCE);
      const off = count === 0 ? 'n/a' : `${(((got - count) / count) * 100).toFixed(2)} %`;
      const line =
        `${caption} ${direction}: billed ${got} B, counted ${count} B (${off}; ` +
        `the kills of its node(s) may take ${(killAllowance / 1e3).toFixed(0)} kB)`;
      lines.push(line);
      if (got < low || got > high) failures.push(line);
    }
  });
  return { lines, failures };
}

/**
 * Stops the pushers, the viewers and the relays' receivers (their counts final), waits for the nodes' last reports to
 * be billed, and judges each stream's bill against the counts; a WHIP push's is told session by session too.
 */
export async function billTheRun(
  plane: ControlPlane,
  run: { encoders: Encoder[]; workload: Workload | null; kills: Record<NodeName, number> },
  runStarted: Date,
): Promise<BillingVerdict> {
  const { encoders, workload } = run;
  await Promise.all(encoders.map((encoder) => encoder.stop()));
  await workload?.stopCounting();
  const runSeconds = (Date.now() - runStarted.getTime()) / 1000;
  const counted: Counted[] = [
    ...encoders.map((encoder) => ({
      streamId: encoder.stream.id,
      direction: 'incoming' as const,
      bytes: () => encoder.bytes(),
      node: 'origin' as const,
      // A WHIP sender notices its node's death up to half a second late (its check of the node's port).
      lossPerKillSeconds: encoder.stream.format === 'WebRTC' ? 1.5 : 1,
    })),
    ...(workload?.counted ?? []),
  ];
  const streams = encoders.map(({ stream }) => ({
    streamId: stream.id,
    caption: `${stream.caption} (${stream.format})`,
  }));
  // Settled: unchanged for three of the nodes' report intervals (REPORT_INTERVAL_MS, 1 s in the run).
  const ids = streams.map((stream) => stream.streamId);
  const bills = await settledBills(plane, ids, runStarted, 3000, 60_000);
  const verdict = judgeBills(streams, counted, bills, run.kills, runSeconds);
  // A WHIP push's bill against its publisher's, session by session (where a shortfall came from).
  for (const [index, { sessions }] of encoders.entries()) {
    const stream = streams[index];
    if (sessions && stream) verdict.lines.push(await whipSessionsLine(plane, stream, runStarted, sessions));
  }
  return verdict;
}
