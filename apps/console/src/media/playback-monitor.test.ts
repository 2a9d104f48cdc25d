import type { BeaconEvent } from '@streamcloud/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Beacon, BeaconRecord } from './beacon';
import type { Playback, PlaybackStats } from './playback';
import { errorKindOf, monitorPlayback, SAMPLE_INTERVAL_MS } from './playback-monitor';

let clock = 0;
let events: BeaconEvent[];
let video: HTMLVideoElement;
let flushedAt: number[];
const beacon = (): Beacon & { closed: boolean } => ({
  closed: false,
  record: (event: BeaconRecord, at = clock) => events.push({ ...event, at } as BeaconEvent),
  flush: () => void flushedAt.push(events.length),
  elapsed: () => clock,
  close() {
    this.closed = true;
  },
});
const stats = (overrides: Partial<PlaybackStats> = {}): PlaybackStats => ({
  width: 1280,
  height: 720,
  fps: 30,
  bitrate: 2_000_000,
  latencySeconds: 1.5,
  framesDecoded: 10,
  ...overrides,
});
const playbackWith = (read: () => PlaybackStats): Playback => ({
  stats: async () => read(),
  renditions: () => [],
  pick: () => {},
  close: () => {},
});
const at = (ms: number, event?: string) => {
  clock = ms;
  if (event) video.dispatchEvent(new Event(event));
};

beforeEach(() => {
  vi.useFakeTimers();
  clock = 0;
  events = [];
  flushedAt = [];
  video = document.createElement('video');
});
afterEach(() => vi.useRealTimers());

describe('monitorPlayback', () => {
  it('reports startup, first frame, a stall, watch time, latency and the rendition', async () => {
    const b = beacon();
    const monitor = monitorPlayback(video, b);
    let current = stats();
    at(300);
    monitor.started(playbackWith(() => current));
    at(900, 'playing');
    at(2000, 'waiting');
    at(2600, 'playing');
    at(SAMPLE_INTERVAL_MS);
    await vi.advanceTimersByTimeAsync(SAMPLE_INTERVAL_MS);
    current = stats({ width: 1920, height: 1080, bitrate: 5_000_000 });
    at(SAMPLE_INTERVAL_MS * 2);
    await vi.advanceTimersByTimeAsync(SAMPLE_INTERVAL_MS);
    at(SAMPLE_INTERVAL_MS * 2 + 500, 'waiting');
    at(SAMPLE_INTERVAL_MS * 2 + 800);
    monitor.close();
    expect(events).toEqual([
      { type: 'startup', at: 900, startupMs: 300, ttffMs: 900 },
      { type: 'rebuffer', at: 2000, durationMs: 600 },
      // Played from 900 to 2000 and from 2600 to 5000.
      { type: 'watch', at: 5000, watchedMs: 3500 },
      { type: 'latency', at: 5000, latencyMs: 1500 },
      { type: 'rendition', at: 5000, width: 1280, height: 720, bitrate: 2_000_000 },
      { type: 'watch', at: 10_000, watchedMs: 5000 },
      { type: 'latency', at: 10_000, latencyMs: 1500 },
      { type: 'rendition', at: 10_000, width: 1920, height: 1080, bitrate: 5_000_000 },
      // The stall still going when the playback ends is reported with its length so far.
      { type: 'rebuffer', at: 10_500, durationMs: 300 },
      { type: 'watch', at: 10_800, watchedMs: 500 },
    ]);
    expect(b.closed).toBe(true);
    // The startup is sent at once, not at the next interval.
    expect(flushedAt).toEqual([1]);
    // Closed: the element's events and the timer no longer report.
    at(20_000, 'playing');
    await vi.advanceTimersByTimeAsync(SAMPLE_INTERVAL_MS);
    expect(events).toHaveLength(10);
  });

  it('reports a failure with its kind', () => {
    const monitor = monitorPlayback(video, beacon());
    monitor.failed('access', 'The playback token has expired');
    expect(events).toEqual([{ type: 'error', at: 0, kind: 'access', message: 'The playback token has expired' }]);
    monitor.close();
  });
});

describe('errorKindOf', () => {
  it.each([
    ['whep', 'The playback token has expired', 'access'],
    ['hls', 'The node answered 403', 'access'],
    ['whep', 'invalid or expired preview credential', 'access'],
    ['hls', 'networkError: manifestLoadTimeOut', 'network'],
    ['hls', 'mediaError: bufferAppendError', 'media'],
    ['whep', 'ICE failed', 'signalling'],
    ['hls', 'video decode error', 'decode'],
  ] as const)('%s: %s is %s', (source, reason, kind) => expect(errorKindOf(source, reason)).toBe(kind));
});
