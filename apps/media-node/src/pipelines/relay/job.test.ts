import type { NodeRelay } from '@streamcloud/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../log.js';
import type { LiveStream } from '../../streams/types.js';
import type { PipelineContext } from '../pipeline.js';
import { RELAY_PROGRESS_MS, RelayJob, type RelayReport } from './job.js';
import type { RelayFailure, RelaySource, RelayTarget, TargetRun } from './target.js';

const relay = {
  id: 'relay-1',
  format: 'UDPTS',
  capture: { source: 'Incoming', tracks: [] },
} as unknown as NodeRelay;

const stream = { assigned: { id: 'input-1', name: 'input-1' }, startedAt: new Date(0), ended: false } as LiveStream;

const source: RelaySource = {
  ffmpeg: 'ffmpeg',
  inputArgs: [],
  tracks: [{ type: 'Video', map: '0:v:0', info: null }],
  unmatched: [],
  dropped: 0,
};

/** A destination taking whatever a run sends: each run's bytes grow as the test says. */
function fakeTarget() {
  let sent = 0;
  const target: RelayTarget = {
    label: 'udp://192.0.2.1:5000',
    needsTracks: false,
    run(_source, flowing): TargetRun {
      flowing();
      let end!: (failure: RelayFailure | null) => void;
      const ended = new Promise<RelayFailure | null>((resolve) => {
        end = resolve;
      });
      return { ended, bytesOut: () => sent, bytesIn: () => 0, stop: async () => end(null) };
    },
  };
  return { target, send: (bytes: number) => (sent += bytes) };
}

describe('RelayJob', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports its bytes with the state they are sent in, so a control plane that lost it hears it Relaying', async () => {
    const reports: RelayReport[] = [];
    const { target, send } = fakeTarget();
    const context = {
      log: createLogger('error'),
      tools: {},
      meter: () => () => undefined,
    } as unknown as PipelineContext;
    const job = new RelayJob(
      relay,
      stream,
      {
        context,
        report: (fields) => reports.push(fields),
        target: () => target,
        source: () => source,
        failingForMs: 600_000,
      },
      0,
    );
    job.start(false);
    expect(reports[0]).toMatchObject({ state: 'Relaying', uploaded: 0 });
    send(1000);
    await vi.advanceTimersByTimeAsync(RELAY_PROGRESS_MS);
    expect(reports.at(-1)).toEqual({ state: 'Relaying', uploaded: 1000 });
    // Nothing new sent: nothing reported.
    const count = reports.length;
    await vi.advanceTimersByTimeAsync(RELAY_PROGRESS_MS);
    expect(reports.length).toBe(count);
    await job.stop({ how: 'removed' });
  });
});
