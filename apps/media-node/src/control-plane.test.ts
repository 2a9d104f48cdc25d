import type { NodeReport } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { type ControlPlaneClient, type ReportBody, Reporter } from './control-plane.js';
import { createLogger } from './log.js';

/** The control plane's end of the reporter: refuses the first `failures` batches (away), then takes each one. */
function controlPlane(failures: number) {
  const batches: NodeReport[][] = [];
  let calls = 0;
  const client = {
    report: async (reports: NodeReport[]) => {
      calls += 1;
      if (calls <= failures) throw new Error('the control plane is away');
      batches.push(reports);
      return { accepted: reports.length, duplicates: 0 };
    },
  };
  return { client: client as unknown as ControlPlaneClient, batches };
}

const usage = (n: number): ReportBody => ({
  kind: 'usage',
  streamId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  at: new Date().toISOString(),
});
const load: ReportBody = { kind: 'load', cpuPercent: 1, bandwidthMbps: 0, sessions: 0 };
const state = (status: 'Ingestion' | 'Error'): ReportBody => ({
  kind: 'stream-state',
  streamId: '00000000-0000-4000-8000-000000000001',
  status,
});
const seq = (report: NodeReport) => Number(report.id.split('-').at(-1));

describe('the reporter', () => {
  it('sends what is said of states ahead of the measurements queued while the control plane was away, each lane in order and once', async () => {
    const plane = controlPlane(2);
    const reporter = new Reporter(plane.client, createLogger('silent'));
    reporter.onReconnected = () => reporter.send(state('Ingestion'));
    // While the control plane is away: 250 measurements, and a state said among them.
    for (let n = 1; n <= 150; n++) reporter.send(n % 2 ? usage(n) : load);
    const said = reporter.send(state('Error'));
    for (let n = 151; n <= 250; n++) reporter.send(usage(n));
    await reporter.flushed();

    const [first, second, ...rest] = plane.batches;
    // The first batch through: the state said meanwhile first, then the oldest measurements.
    expect(first?.[0]).toMatchObject({ kind: 'stream-state', status: 'Error' });
    expect(seq(first?.[0] as NodeReport)).toBe(said);
    // The next: what the node says again on reconnecting, before the rest of the backlog.
    expect(second?.[0]).toMatchObject({ kind: 'stream-state', status: 'Ingestion' });
    expect(rest.length).toBeGreaterThan(0);
    // Every measurement once, in the order it was queued.
    const measured = plane.batches
      .flat()
      .filter((report) => report.kind !== 'stream-state')
      .map(seq);
    expect(measured).toEqual([...Array(250)].map((_, i) => (i < 150 ? i + 1 : i + 2)));
  });

  it('counts a state delivered with its batch, while measurements queued before it still wait', async () => {
    const plane = controlPlane(0);
    const reporter = new Reporter(plane.client, createLogger('silent'));
    for (let n = 1; n <= 120; n++) reporter.send(usage(n));
    const said = reporter.send(state('Ingestion'));
    const seen: number[] = [];
    const report = plane.client.report.bind(plane.client);
    plane.client.report = async (reports) => {
      seen.push(reporter.delivered);
      return report(reports);
    };
    await reporter.flushed();
    // The second batch left once the first, with the state, was through: `delivered` said so then.
    expect(seen).toEqual([0, said]);
    expect(plane.batches.map((batch) => batch.length)).toEqual([100, 21]);
  });
});
