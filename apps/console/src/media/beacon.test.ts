import { BEACON_MAX_BYTES, BEACON_MAX_EVENTS, BeaconBatch } from '@streamcloud/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BATCH_EVENTS, type Beacon, createBeacon, FLUSH_INTERVAL_MS, MESSAGE_MAX } from './beacon';

let clock = 0;
let sent: BeaconBatch[];
let beacon: Beacon | undefined;
const open = () => {
  beacon = createBeacon({
    url: '/api/v1/play/x/beacons',
    session: 'vs1.s',
    player: 'embed',
    now: () => clock,
    // Each body is what the API would parse: the contract's schema checks it.
    send: (url, body) => {
      expect(url).toBe('/api/v1/play/x/beacons');
      expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(BEACON_MAX_BYTES);
      sent.push(BeaconBatch.parse(JSON.parse(body)));
    },
  });
  return beacon;
};

beforeEach(() => {
  vi.useFakeTimers();
  clock = 1000;
  sent = [];
});
afterEach(() => {
  beacon?.close();
  vi.useRealTimers();
});

describe('createBeacon', () => {
  it('stays within the contract: batch size, message length', () => {
    expect(BATCH_EVENTS).toBeLessThanOrEqual(BEACON_MAX_EVENTS);
    expect(MESSAGE_MAX).toBe(200);
  });

  it('sends the queued events every interval, timed from its start, with the session and player', () => {
    const b = open();
    clock += 500;
    b.record({ type: 'latency', latencyMs: 800 });
    b.record({ type: 'rebuffer', durationMs: 300 }, 100);
    expect(sent).toEqual([]);
    clock += 2000;
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS);
    expect(sent).toEqual([
      {
        session: 'vs1.s',
        player: 'embed',
        sentAt: 2500,
        events: [
          { type: 'latency', at: 500, latencyMs: 800 },
          { type: 'rebuffer', at: 100, durationMs: 300 },
        ],
      },
    ]);
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS);
    expect(sent).toHaveLength(1);
  });

  it('sends a full batch at once, so the queue stays bounded, and cuts long error messages', () => {
    const b = open();
    for (let i = 0; i < BATCH_EVENTS * 2 + 1; i++) {
      b.record({ type: 'error', kind: 'network', message: 'x'.repeat(1000) });
    }
    expect(sent.map((batch) => batch.events.length)).toEqual([BATCH_EVENTS, BATCH_EVENTS]);
    expect(sent[0]?.events[0]).toMatchObject({ message: 'x'.repeat(MESSAGE_MAX) });
  });

  it('sends what is left when the page is left, and on close', () => {
    const b = open();
    b.record({ type: 'watch', watchedMs: 100 });
    dispatchEvent(new Event('pagehide'));
    expect(sent).toHaveLength(1);
    b.record({ type: 'watch', watchedMs: 200 });
    b.close();
    beacon = undefined;
    expect(sent.map((batch) => batch.events[0])).toMatchObject([{ watchedMs: 100 }, { watchedMs: 200 }]);
    dispatchEvent(new Event('pagehide'));
    expect(sent).toHaveLength(2);
  });
});
