import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeReport } from '@streamcloud/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { type ControlPlaneClient, Reporter } from '../control-plane.js';
import { createLogger } from '../log.js';
import type { UsageBody } from './usage.js';
import { UsageJournal } from './usage-journal.js';

const STREAM = '00000000-0000-4000-8000-000000000001';
const log = createLogger('silent');

/** The control plane's end: takes every batch and, as the API does, bills a report id once. */
function controlPlane() {
  const billed = new Map<string, number>();
  const client = {
    report: async (reports: NodeReport[]) => {
      for (const report of reports)
        if (report.kind === 'usage' && !billed.has(report.id)) billed.set(report.id, report.outgoing?.download ?? 0);
      return { accepted: reports.length, duplicates: 0 };
    },
  };
  const total = () => [...billed.values()].reduce((sum, bytes) => sum + bytes, 0);
  return { client: client as unknown as ControlPlaneClient, total };
}

/** A stream's relay traffic as the meter sees it: `counted` so far, `reported` up to the last cut. */
function meter() {
  const state = { counted: 0, reported: 0 };
  const body = (bytes: number): UsageBody => ({
    kind: 'usage',
    at: new Date().toISOString(),
    streamId: STREAM,
    outgoing: { upload: 0, download: bytes, duration: 1 },
  });
  return {
    state,
    pending: (): UsageBody[] => (state.counted > state.reported ? [body(state.counted - state.reported)] : []),
    /** The meter's report interval: what was counted since the last cut goes out as a report. */
    cut(reporter: Reporter) {
      reporter.send(body(state.counted - state.reported));
      state.reported = state.counted;
    },
  };
}

describe('the usage journal', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('bills nothing twice when the node dies after a report that took usage its journal held as pending went out', async () => {
    dir = mkdtempSync(join(tmpdir(), 'usage-journal-'));
    const file = join(dir, 'journal.json');
    const plane = controlPlane();
    const traffic = meter();
    const journal = new UsageJournal(file, traffic.pending, log);
    const reporter = new Reporter(plane.client, log, journal);

    // 1000 bytes counted and journaled as pending (the journal's every-second write).
    traffic.state.counted = 1000;
    await journal.write();
    // 500 more, then the report interval: all 1500 go out and are acknowledged.
    traffic.state.counted = 1500;
    traffic.cut(reporter);
    await reporter.flushed();
    expect(plane.total()).toBe(1500);
    // kill -9 before the journal's next timed write: the file is what the node left.
    reporter.close();
    const left = readFileSync(file, 'utf8');

    // The next life sends again what the file holds.
    const next = new UsageJournal(file, () => [], log);
    const afterRestart = new Reporter(plane.client, log, next);
    for (const report of await next.recover()) afterRestart.resend(report);
    await afterRestart.flushed();
    // Counted 1500, billed 1500: the pending 1000 the report carried is not billed again.
    expect(plane.total(), `the journal left: ${left}`).toBe(1500);
  });
});
