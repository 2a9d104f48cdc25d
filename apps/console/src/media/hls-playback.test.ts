import { afterEach, describe, expect, it, vi } from 'vitest';
import { fragmentBitrate, hlsFailure, playHls, sessionQuery, sinceDate } from './hls-playback';
import { NODE_UNREACHABLE } from './node-message';

/** hls.js at the unit's edge: the last player made is `player`; `fail` raises an error as hls.js would. */
let player: FakeHls;
class FakeHls {
  static isSupported = () => true;
  static Events = { ERROR: 'hlsError', FRAG_LOADED: 'hlsFragLoaded' };
  levels = [];
  currentLevel = -1;
  latency = 2.5;
  playingDate: Date | null = null;
  source = '';
  handlers: Record<string, (event: string, data: unknown) => void> = {};
  constructor(readonly config: Record<string, unknown>) {
    player = this;
  }
  on(event: string, handler: (event: string, data: unknown) => void) {
    this.handlers[event] = handler;
  }
  loadSource(source: string) {
    this.source = source;
  }
  attachMedia() {}
  destroy() {}
  fail(data: unknown) {
    this.handlers.hlsError?.('hlsError', data);
  }
  fragment(type: string, bytes: number, duration: number) {
    this.handlers.hlsFragLoaded?.('hlsFragLoaded', { frag: { type, duration }, payload: new ArrayBuffer(bytes) });
  }
}
vi.mock('hls.js', () => ({ default: FakeHls }));

const video = () =>
  ({
    videoWidth: 640,
    videoHeight: 360,
    buffered: { length: 0 },
    seekable: { length: 0 },
    currentTime: 0,
  }) as unknown as HTMLVideoElement;

/** An XMLHttpRequest as hls.js hands it over in an error (networkDetails). */
const answered = (responseText: string) => ({ responseText });

describe('playHls', () => {
  afterEach(() => vi.useRealTimers());

  it('plays with the credential and shows glass-to-glass latency from the program date of the playing frame', async () => {
    const playback = await playHls('http://node.example:4242/hls/out%2Bh/index.m3u8', 'pv1.x.y', video());
    expect(player.source).toBe('http://node.example:4242/hls/out%2Bh/index.m3u8?token=pv1.x.y');
    expect((await playback.stats()).glassToGlassSeconds).toBeNull();
    vi.useFakeTimers({ now: new Date('2026-11-27T06:00:03.250Z') });
    player.playingDate = new Date('2026-11-27T06:00:00.000Z');
    expect(await playback.stats()).toMatchObject({ glassToGlassSeconds: 3.25, liveEdgeSeconds: 2.5 });
  });

  it('keeps a Standard output two fragments behind live, and a Low output at its PART-HOLD-BACK', async () => {
    await playHls('http://node.example:4242/hls/out%2Bh/index.m3u8', 'pv1.x.y', video());
    expect(player.config).toEqual({ lowLatencyMode: true, liveSyncDurationCount: 2 });
    await playHls('http://node.example:4242/hls/out%2Bh/index.m3u8', 'pv1.x.y', video(), () => {}, {
      lowLatency: true,
    });
    // Any liveSync setting would override the playlist's hold-back in hls.js: none is given.
    expect(Object.keys(player.config).filter((key) => key.startsWith('liveSync'))).toEqual([]);
    expect(player.config).toMatchObject({ lowLatencyMode: true, maxLiveSyncPlaybackRate: 1.5 });
  });

  it('measures the bitrate of a passthrough output (no level bitrate) from the fragments loaded', async () => {
    const playback = await playHls('http://node.example:4242/hls/out%2Bh/index.m3u8', 'pv1.x.y', video());
    expect((await playback.stats()).bitrate).toBeNull();
    // 250,000 bytes in 2 s and 125,000 in 1 s: 1 Mb/s; an audio rendition's fragment does not count.
    player.fragment('main', 250_000, 2);
    player.fragment('audio', 999_999, 1);
    player.fragment('main', 125_000, 1);
    expect((await playback.stats()).bitrate).toBe(1_000_000);
    // An LL-HLS part: its own bytes over its own duration (0.25 s), not its segment's (1 s): 375 kB in 3.25 s.
    player.handlers.hlsFragLoaded?.('hlsFragLoaded', {
      frag: { type: 'main', duration: 1 },
      part: { duration: 0.25 },
      payload: new ArrayBuffer(31_250),
    });
    expect((await playback.stats()).bitrate).toBe(((250_000 + 125_000 + 31_250) * 8) / 3.25);
  });

  it("knows its storyboard's address from the first part loaded, even of a segment with no URI yet (the live edge)", async () => {
    const playback = await playHls('http://node.example:4242/hls/out%2Bh/index.m3u8', 'pv1.x.y', video());
    expect(playback.storyboardUrl?.()).toBeNull();
    // hls.js's fragment of a segment still being written has no URI of its own: an empty url.
    player.handlers.hlsFragLoaded?.('hlsFragLoaded', {
      frag: { type: 'main', duration: 1, url: '' },
      part: { duration: 0.2, url: 'http://node.example:4242/hls/out%2Bh/part-3.1.m4s?sid=hls-a.b&token=pv1.x.y' },
      payload: new ArrayBuffer(1000),
    });
    expect(playback.storyboardUrl?.()).toBe(
      'http://node.example:4242/hls/out%2Bh/storyboard.vtt?sid=hls-a.b&token=pv1.x.y',
    );
  });

  it("reports a fatal error with the node's refusal, and ignores what hls.js recovers from", async () => {
    const onFailure = vi.fn();
    await playHls('http://node.example:4242/hls/out%2Bh/index.m3u8', 'pv1.x.y', video(), onFailure);
    player.fail({ fatal: false, details: 'fragLoadError', response: { code: 404 } });
    expect(onFailure).not.toHaveBeenCalled();
    player.fail({
      fatal: true,
      details: 'manifestLoadError',
      response: { code: 410 },
      networkDetails: answered('{"message":"This session was ended"}'),
    });
    expect(onFailure).toHaveBeenCalledWith('This session was ended');
  });
});

describe('fragmentBitrate', () => {
  it('averages the last five fragments and ignores those without a duration', () => {
    const measured = fragmentBitrate();
    measured.add(1000, 0);
    expect(measured.bitrate()).toBeNull();
    for (let i = 0; i < 5; i++) measured.add(1_000_000, 1);
    measured.add(500_000, 1);
    // The first 1 MB fragment left the window: (4 × 1 MB + 0.5 MB) × 8 over 5 s.
    expect(measured.bitrate()).toBe(7_200_000);
  });
});

describe('hlsFailure', () => {
  it('falls back to the status, then to what hls.js says, when the node gave no message', () => {
    expect(hlsFailure({ details: 'levelLoadError' as never, response: { code: 502, text: '', url: '' } })).toBe(
      'the node answered 502',
    );
    const binary = {
      get responseText(): string {
        throw new DOMException('not text', 'InvalidStateError');
      },
    };
    expect(hlsFailure({ details: 'fragParsingError' as never, networkDetails: binary as never })).toBe(
      'fragParsingError',
    );
  });

  it('says the node could not be reached when no answer came (network, or a node newer than the page)', () => {
    expect(hlsFailure({ details: 'manifestLoadError' as never, response: { code: 0, text: '', url: '' } })).toBe(
      NODE_UNREACHABLE,
    );
  });

  it('sinceDate is null without a program date', () => {
    expect(sinceDate(null)).toBeNull();
    expect(sinceDate(new Date(1000), 2500)).toBe(1.5);
  });
});

describe('sessionQuery', () => {
  it("reads the node's session query off a fragment's URI, none without a session id", () => {
    expect(sessionQuery('http://node.test/hls/out/part-3.1.m4s?sid=hls-a.b&token=t')).toBe('?sid=hls-a.b&token=t');
    expect(sessionQuery('http://node.test/hls/out/1.ts?token=t')).toBeNull();
    expect(sessionQuery('not a url')).toBeNull();
  });
});
