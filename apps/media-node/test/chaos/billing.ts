import type { StreamStatisticsResponse } from '@streamcloud/contract';
import type { ControlPlane } from '../harness.js';
import { sleep } from '../harness.js';

/**
 * The billing check of the chaos run: each stream's billed incoming and outgoing bytes (the statistics API, once the
 * nodes' last reports are in) against what the run's own pushers, viewers and relay receiver exchanged with the
 * nodes (counted at their end: `Encoder.bytes`, `EdgeWorld.bytes`, `RelayedWorld.bytes`).
 *
 * What the node may bill short, and why it is allowed: a node killed with -9 loses the usage it counted since its
 * journal's last write (`USAGE_JOURNAL_INTERVAL_MS`, 1 s), so each kill of the node metering a count may take up to
 * `lossPerKillSeconds` of that stream's bytes from its bill. Nothing may be billed over the count by more than 1 %:
 * a report replayed after a restart or a cut and billed twice would show there.
 */
export interface BilledSubject {
  /** The stream's caption, for the report. */
  caption: string;
  streamId: string;
  /** The run's count of what was pushed to the node (both ways), and what the node sent its viewers and relays. */
  counted: { incoming: number; outgoing: number };
  /** Kills of the node that meters the push, and of the node(s) that meter its outgoing traffic. */
  kills: { incoming: number; outgoing: number };
  /** How much of a kill's last seconds may be lost from the bill (the journal's interval, and more for a protocol whose sender cannot tell). */
  lossPerKillSeconds: { incoming: number; outgoing: number };
}

export interface BillingVerdict {
  lines: string[];
  /** The counts billed outside their bounds (empty: the bill holds). */
  failures: string[];
}

/** Over the count by at most this share; under it by this share and what the kills may take. */
export const BILLING_TOLERANCE = 0.01;

type Direction = 'incoming' | 'outgoing';

/** The bytes billed to a stream since `from` (both ways: what the peers sent the node and what it sent them). */
async function billed(plane: ControlPlane, streamId: string, from: Date): Promise<Record<Direction, number>> {
  // Usage is counted per hour: a window from an hour before the run to an hour after covers all of it.
  const start = new Date(from.getTime() - 3600_000).toISOString();
  const end = new Date(Date.now() + 3600_000).toISOString();
  const answer = await plane.api<StreamStatisticsResponse>(
    'GET',
    `/statistics/stream/${streamId}/from/${start}/to/${end}`,
  );
  if (answer.status !== 200) throw new Error(`statistics of ${streamId}: ${answer.status}`);
  const usage = answer.body.streams[0];
  const sum = (rows: Array<{ upload: number; download: number }> = []) =>
    rows.reduce((total, row) => total + row.upload + row.download, 0);
  return { incoming: sum(usage?.incoming), outgoing: sum(usage?.outgoing) };
}

/**
 * Waits until the bill stops changing (every stream's the same for `settleMs`, longer than a node's report
 * interval: the nodes' last reports are in), at most `timeoutMs`; answers each stream's bill then.
 */
export async function settledBills(
  plane: ControlPlane,
  subjects: BilledSubject[],
  from: Date,
  settleMs: number,
  timeoutMs: number,
): Promise<Array<Record<Direction, number>>> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  let sameSince = Date.now();
  for (;;) {
    const bills = await Promise.all(subjects.map((subject) => billed(plane, subject.streamId, from)));
    const now = JSON.stringify(bills);
    if (now !== last) {
      last = now;
      sameSince = Date.now();
    } else if (Date.now() - sameSince >= settleMs || Date.now() > deadline) return bills;
    await sleep(1000);
  }
}

/** Each stream's bill against the run's count, over `runSeconds` (a kill's allowance is its seconds of the average rate). */
export function judgeBills(
  subjects: BilledSubject[],
  bills: Array<Record<Direction, number>>,
  runSeconds: number,
): BillingVerdict {
  const lines: string[] = [];
  const failures: string[] = [];
  subjects.forEach((subject, index) => {
    const bill = bills[index] ?? { incoming: 0, outgoing: 0 };
    for (const direction of ['incoming', 'outgoing'] as const) {
      const counted = subject.counted[direction];
      const got = bill[direction];
      if (counted === 0 && got === 0) continue;
      const rate = counted / Math.max(1, runSeconds);
      const killAllowance = subject.kills[direction] * subject.lossPerKillSeconds[direction] * rate;
      const low = counted * (1 - BILLING_TOLERANCE) - killAllowance;
      const high = counted * (1 + BILLING_TOLERANCE);
      const off = counted === 0 ? 'n/a' : `${(((got - counted) / counted) * 100).toFixed(2)} %`;
      const line =
        `${subject.caption} ${direction}: billed ${got} B, counted ${counted} B (${off}; ` +
        `${subject.kills[direction]} kills of its node may take ${(killAllowance / 1e3).toFixed(0)} kB)`;
      lines.push(line);
      if (got < low || got > high) failures.push(line);
    }
  });
  return { lines, failures };
}
