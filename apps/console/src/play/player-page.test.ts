import type { PlayInfo } from '@streamcloud/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Playback } from '@/media/playback';
import { POLL_FIRST_MS, STUCK_CHECK_MS, STUCK_MS, WHEP_FIRST_FRAME_MS } from './play-state';
import { mountPlayer, type Player, type PlayerOptions } from './player-page';

const outputId = '4b0c5a52-5a0e-4c54-9b8a-1f9d2f0c0a11';
const live: PlayInfo = {
  outputId,
  format: 'WebRTC',
  streamStatus: 'Ingestion',
  access: 'Private',
  hlsLatency: null,
  playback: { whep: 'http://node/whep/out+x' },
  poster: '/api/v1/play/x/poster?t=1',
  viewerSession: 'vs1.a.1.b',
};
const offline: PlayInfo = { ...live, streamStatus: 'Idle', playback: {} };
const playback = (): Playback => ({ close: vi.fn(), stats: vi.fn(), renditions: () => [], pick: () => {} });

let root: HTMLElement;
let player: Player | undefined;
beforeEach(() => {
  vi.useFakeTimers();
  root = document.createElement('main');
  document.body.append(root);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});
afterEach(() => {
  player?.destroy();
  root.remove();
  vi.useRealTimers();
});

function mount(answers: Array<PlayInfo | null>, overrides: Partial<PlayerOptions> = {}) {
  const fetchInfo = vi.fn(async () => (answers.length > 1 ? answers.shift() : answers[0]) ?? null);
  const start = vi.fn(async () => playback());
  player = mountPlayer(root, { outputId, token: 'tok', fetchInfo, start, webrtc: true, ...overrides });
  return { fetchInfo, start };
}
const status = () => root.querySelector<HTMLElement>('[role="status"]');

describe('the player page', () => {
  it('is a labelled, muted video with named buttons', async () => {
    mount([live]);
    await vi.advanceTimersByTimeAsync(0);
    const video = root.querySelector('video');
    expect(video?.getAttribute('aria-label')).toBe('Live stream');
    expect(video?.muted).toBe(true);
    const unmute = [...root.querySelectorAll('button')].find((button) => button.textContent === 'Unmute');
    unmute?.click();
    expect(video?.muted).toBe(false);
    expect(video?.getAttribute('poster')).toBe(live.poster);
  });

  it('says the stream is offline, polls, and plays by itself once it is live, with the token', async () => {
    const { fetchInfo, start } = mount([offline, offline, live]);
    await vi.advanceTimersByTimeAsync(0);
    expect(status()?.textContent).toBe('The stream is offline');
    expect(start).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(POLL_FIRST_MS);
    expect(fetchInfo).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(POLL_FIRST_MS * 2);
    expect(start).toHaveBeenCalledWith(
      { kind: 'whep', url: 'http://node/whep/out+x' },
      'tok',
      expect.any(HTMLVideoElement),
      expect.any(Function),
    );
    expect(status()?.hidden).toBe(true);
  });

  it('starts again a playback whose picture moved, then stood still (not paused) for STUCK_MS', async () => {
    const first = playback();
    const start = vi.fn().mockResolvedValueOnce(first).mockResolvedValue(playback());
    mount([live], { start });
    await vi.advanceTimersByTimeAsync(0);
    const video = root.querySelector('video') as HTMLVideoElement;
    let time = 0;
    let paused = false;
    Object.defineProperty(video, 'currentTime', { get: () => time });
    Object.defineProperty(video, 'paused', { get: () => paused });
    // Not moved yet (starting): left alone.
    await vi.advanceTimersByTimeAsync(STUCK_MS * 2);
    expect(start).toHaveBeenCalledTimes(1);
    // Moving, then paused: left alone.
    time = 1;
    await vi.advanceTimersByTimeAsync(STUCK_CHECK_MS);
    paused = true;
    await vi.advanceTimersByTimeAsync(STUCK_MS * 2);
    expect(start).toHaveBeenCalledTimes(1);
    // Playing and still: started again (once the page asked the API again).
    paused = false;
    await vi.advanceTimersByTimeAsync(STUCK_MS + STUCK_CHECK_MS);
    expect(first.close).toHaveBeenCalled();
    expect(status()?.textContent).toBe('WebRTC playback failed: the picture stopped moving');
    await vi.advanceTimersByTimeAsync(POLL_FIRST_MS);
    expect(start).toHaveBeenCalledTimes(2);
    expect(status()?.hidden).toBe(true);
    // Ended (a closed HLS playlist; an ended element is paused): started again at the next look.
    let ended = true;
    paused = true;
    Object.defineProperty(video, 'ended', { get: () => ended });
    await vi.advanceTimersByTimeAsync(STUCK_CHECK_MS);
    expect(status()?.textContent).toBe('WebRTC playback failed: the stream ended');
    ended = false;
    await vi.advanceTimersByTimeAsync(POLL_FIRST_MS);
    expect(start).toHaveBeenCalledTimes(3);
  });

  it("shows the node's refusal, and plays again with a token the host page gives", async () => {
    const start = vi.fn().mockRejectedValueOnce(new Error('The playback token has expired'));
    start.mockResolvedValue(playback());
    mount([live], { start });
    await vi.advanceTimersByTimeAsync(0);
    expect(status()?.textContent).toBe('WebRTC playback failed: The playback token has expired');
    player?.setToken('fresh');
    await vi.advanceTimersByTimeAsync(0);
    expect(start).toHaveBeenLastCalledWith(expect.anything(), 'fresh', expect.anything(), expect.anything());
  });

  it("monitors each playback under the API's latest viewer session, and reports its failure", async () => {
    const monitors: Array<{ session: string; started: number; failed: string[]; closed: number }> = [];
    const monitor = vi.fn((session: string) => {
      const entry = { session, started: 0, failed: [] as string[], closed: 0 };
      monitors.push(entry);
      return {
        started: () => void entry.started++,
        failed: (kind: string, message: string) => void entry.failed.push(`${kind}: ${message}`),
        close: () => void entry.closed++,
      };
    });
    const start = vi.fn().mockResolvedValueOnce(playback()).mockRejectedValueOnce(new Error('The node answered 403'));
    mount([live], { start, monitor });
    await vi.advanceTimersByTimeAsync(0);
    expect(monitors).toEqual([{ session: live.viewerSession, started: 1, failed: [], closed: 0 }]);
    player?.setToken('fresh');
    await vi.advanceTimersByTimeAsync(0);
    expect(monitors[0]?.closed).toBe(1);
    expect(monitors[1]).toEqual({
      session: live.viewerSession,
      started: 0,
      failed: ['access: The node answered 403'],
      closed: 1,
    });
  });

  describe('with an HLS fallback beside WHEP', () => {
    const withFallback: PlayInfo = {
      ...live,
      playback: { whep: 'http://node/whep/out+x', hls: 'http://node/hls/out+y/index.m3u8' },
    };
    const hls = { kind: 'hls', url: 'http://node/hls/out+y/index.m3u8', lowLatency: false };
    const sources = (start: ReturnType<typeof vi.fn>) => start.mock.calls.map(([source]) => source.kind);

    it('gives way to HLS when no picture comes over WebRTC (UDP blocked), for the rest of the page', async () => {
      const { start } = mount([withFallback]);
      await vi.advanceTimersByTimeAsync(0);
      // Playing (not paused), its picture still at 0.
      Object.defineProperty(root.querySelector('video'), 'paused', { get: () => false });
      await vi.advanceTimersByTimeAsync(WHEP_FIRST_FRAME_MS - STUCK_CHECK_MS);
      expect(sources(start)).toEqual(['whep']);
      await vi.advanceTimersByTimeAsync(STUCK_CHECK_MS * 2);
      expect(start).toHaveBeenLastCalledWith(hls, 'tok', expect.anything(), expect.anything());
      // The next looks keep HLS, though the API still offers WHEP.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(new Set(sources(start))).toEqual(new Set(['whep', 'hls']));
      expect(sources(start).filter((kind) => kind === 'hls')).toHaveLength(1);
    });

    it('gives way to HLS at once when the WebRTC connection fails before its first picture', async () => {
      let lose: (reason: string) => void = () => {};
      const start = vi.fn(async (_source, _token, _video, onFailure: (reason: string) => void) => {
        lose = onFailure;
        return playback();
      });
      mount([withFallback], { start });
      await vi.advanceTimersByTimeAsync(0);
      lose('the network connection to the media node was lost');
      await vi.advanceTimersByTimeAsync(0);
      expect(sources(start)).toEqual(['whep', 'hls']);
      expect(status()?.hidden).toBe(true);
    });

    it("keeps WHEP after the node's refusal, and after a loss once the picture moved", async () => {
      let lose: (reason: string) => void = () => {};
      const start = vi.fn(async (_source, _token, _video, onFailure: (reason: string) => void) => {
        lose = onFailure;
        return playback();
      });
      start.mockRejectedValueOnce(new Error('The playback token has expired'));
      mount([withFallback], { start });
      await vi.advanceTimersByTimeAsync(0);
      await vi.advanceTimersByTimeAsync(POLL_FIRST_MS);
      expect(sources(start)).toEqual(['whep', 'whep']);
      const video = root.querySelector('video') as HTMLVideoElement;
      let time = 0;
      Object.defineProperty(video, 'currentTime', { get: () => time });
      time = 1;
      await vi.advanceTimersByTimeAsync(STUCK_CHECK_MS);
      lose('the network connection to the media node was lost');
      await vi.advanceTimersByTimeAsync(POLL_FIRST_MS);
      expect(sources(start)).toEqual(['whep', 'whep', 'whep']);
    });
  });

  it('says so for an unknown output, and stops asking', async () => {
    const { fetchInfo } = mount([null]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(status()?.textContent).toBe('There is no such player');
    expect(fetchInfo).toHaveBeenCalledTimes(1);
  });
});
