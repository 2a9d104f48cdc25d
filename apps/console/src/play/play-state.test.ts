import type { PlayInfo } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { failureText, PLAY_TEXTS, POLL_FIRST_MS, POLL_MAX_MS, pollDelay, viewOf } from './play-state';

const info = (overrides: Partial<PlayInfo> = {}): PlayInfo => ({
  outputId: '4b0c5a52-5a0e-4c54-9b8a-1f9d2f0c0a11',
  format: 'WebRTC',
  streamStatus: 'Ingestion',
  access: 'Public',
  hlsLatency: null,
  playback: { whep: 'http://node/whep/out+x' },
  poster: null,
  viewerSession: 'vs1.a.1.b',
  ...overrides,
});

describe('the player view', () => {
  it('plays a live WebRTC output over WHEP and a live HLS output over HLS', () => {
    expect(viewOf(info(), true)).toEqual({ kind: 'play', source: { kind: 'whep', url: 'http://node/whep/out+x' } });
    const hls = info({ format: 'HLS', hlsLatency: 'Standard', playback: { hls: 'http://node/hls/out+x/index.m3u8' } });
    expect(viewOf(hls, false)).toEqual({
      kind: 'play',
      source: { kind: 'hls', url: 'http://node/hls/out+x/index.m3u8', lowLatency: false },
    });
    // A Low-latency output's player follows the playlist's part hold-back.
    expect(viewOf({ ...hls, hlsLatency: 'Low' }, false)).toMatchObject({ source: { lowLatency: true } });
    expect(viewOf(info({ streamStatus: 'Fallback' }), true).kind).toBe('play');
  });

  it("falls back to the stream's HLS output where the browser has no WebRTC", () => {
    const both = info({
      hlsLatency: 'Low',
      playback: { whep: 'http://node/whep/out+x', hls: 'http://node/hls/out+y/index.m3u8' },
    });
    expect(viewOf(both, true)).toEqual({ kind: 'play', source: { kind: 'whep', url: 'http://node/whep/out+x' } });
    expect(viewOf(both, false)).toEqual({
      kind: 'play',
      source: { kind: 'hls', url: 'http://node/hls/out+y/index.m3u8', lowLatency: true },
    });
  });

  it('says the stream is offline (Idle, Error) or starting (Pending, or live without a URL yet)', () => {
    expect(viewOf(info({ streamStatus: 'Idle' }), true)).toEqual({ kind: 'wait', message: PLAY_TEXTS.offline });
    expect(viewOf(info({ streamStatus: 'Error' }), true)).toEqual({ kind: 'wait', message: 'The stream is offline' });
    expect(viewOf(info({ streamStatus: 'Pending' }), true)).toEqual({
      kind: 'wait',
      message: 'The stream is starting',
    });
    expect(viewOf(info({ playback: {} }), true)).toEqual({ kind: 'wait', message: PLAY_TEXTS.starting });
  });

  it('says why it cannot play: no WebRTC in this browser, or an output no browser plays', () => {
    expect(viewOf(info(), false)).toEqual({ kind: 'wait', message: PLAY_TEXTS.noWebRtc });
    expect(viewOf(info({ format: 'RTMP', playback: {} }), true)).toEqual({
      kind: 'wait',
      message: PLAY_TEXTS.notBrowser,
    });
  });

  it('names the player that failed and gives the reason', () => {
    expect(failureText('whep', 'The token is not valid')).toBe('WebRTC playback failed: The token is not valid');
    expect(failureText('hls', 'the node answered 500')).toBe('HLS playback failed: the node answered 500');
  });
});

describe('polling while not playing', () => {
  it('starts every few seconds and backs off to a bound', () => {
    expect(pollDelay(0)).toBe(POLL_FIRST_MS);
    expect(pollDelay(1)).toBeGreaterThan(POLL_FIRST_MS);
    const delays = Array.from({ length: 20 }, (_, attempt) => pollDelay(attempt));
    expect(delays).toEqual([...delays].sort((a, b) => a - b));
    expect(Math.max(...delays)).toBe(POLL_MAX_MS);
  });
});
