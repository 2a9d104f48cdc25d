import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NODE_UNREACHABLE } from './node-message';
import { playWhep, preconnectWhep, WHEP_DISCONNECTED_GRACE_MS, WHEP_LOST } from './whep-playback';

const URL = 'http://node.example:4242/whep/out%2Bw';
const TOKEN = 'pv1.1900000000.signature';

/** The browser's RTCPeerConnection at the unit's edge: applying the answer brings the video track, as in Chromium. */
class TrackOnAnswer extends EventTarget {
  iceGatheringState = 'complete';
  connectionState = 'new';
  localDescription: { sdp: string } | null = null;
  ontrack: ((event: { track: unknown }) => void) | null = null;
  addTransceiver() {}
  async createOffer() {
    return { type: 'offer', sdp: 'v=0 offer' };
  }
  async setLocalDescription(description: { sdp: string }) {
    this.localDescription = description;
  }
  async setRemoteDescription() {
    this.ontrack?.({ track: { kind: 'video' } });
  }
  close() {}
}

class FakeMediaStream {
  addTrack() {}
}

const ANSWER = () => new Response('v=0 answer', { status: 201, headers: { location: '/whep/out%2Bw/session' } });

describe('playWhep', () => {
  beforeEach(() => {
    vi.stubGlobal('RTCPeerConnection', TrackOnAnswer);
    vi.stubGlobal('MediaStream', FakeMediaStream);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => ANSWER()),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('plays the answered tracks in the element and lets it go on close', async () => {
    const video = { srcObject: null } as unknown as HTMLVideoElement;
    const playback = await playWhep(URL, TOKEN, video);
    expect(video.srcObject).toBeInstanceOf(FakeMediaStream);
    playback.close();
    expect(video.srcObject).toBeNull();
  });

  it('says once when the connection is lost: failed at once, disconnected after a grace; never after close', async () => {
    vi.useFakeTimers();
    try {
      const video = { srcObject: null } as unknown as HTMLVideoElement;
      const lost = vi.fn();
      const playing = () => playWhep(URL, TOKEN, video, undefined, lost);
      const states = (pc: TrackOnAnswer, ...each: string[]) => {
        for (const state of each) {
          pc.connectionState = state;
          pc.dispatchEvent(new Event('connectionstatechange'));
        }
      };
      let made: TrackOnAnswer | null = null;
      vi.stubGlobal(
        'RTCPeerConnection',
        class extends TrackOnAnswer {
          constructor() {
            super();
            made = this;
          }
        },
      );
      const first = await playing();
      const pc = made as unknown as TrackOnAnswer;
      // A blip: disconnected, then connected again within the grace.
      states(pc, 'connected', 'disconnected');
      vi.advanceTimersByTime(WHEP_DISCONNECTED_GRACE_MS - 100);
      states(pc, 'connected');
      vi.advanceTimersByTime(WHEP_DISCONNECTED_GRACE_MS);
      expect(lost).not.toHaveBeenCalled();
      // Disconnected for longer: lost, once.
      states(pc, 'disconnected');
      vi.advanceTimersByTime(WHEP_DISCONNECTED_GRACE_MS);
      states(pc, 'failed');
      expect(lost).toHaveBeenCalledTimes(1);
      expect(lost).toHaveBeenCalledWith(WHEP_LOST);
      first.close();

      const second = await playing();
      const next = made as unknown as TrackOnAnswer;
      states(next, 'failed');
      expect(lost).toHaveBeenCalledTimes(2);
      second.close();
      const third = await playing();
      third.close();
      states(made as unknown as TrackOnAnswer, 'failed', 'disconnected');
      vi.advanceTimersByTime(WHEP_DISCONNECTED_GRACE_MS);
      expect(lost).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves the element to an HLS output picked while it was still connecting', async () => {
    const video = { srcObject: null, src: 'blob:http://console.example/media-source' } as unknown as HTMLVideoElement;
    const picked = new AbortController();
    const connecting = playWhep(URL, TOKEN, video, picked.signal);
    picked.abort();
    const playback = await connecting;
    expect(video.srcObject).toBeNull();
    playback.close();
    expect(video.srcObject).toBeNull();
    expect(video.src).toBe('blob:http://console.example/media-source');
  });

  it('ends the session with a keepalive DELETE when the page goes away, and only once after close', async () => {
    const video = { srcObject: null } as unknown as HTMLVideoElement;
    const playback = await playWhep(URL, TOKEN, video);
    const calls = vi.mocked(fetch).mock.calls;
    window.dispatchEvent(new Event('pagehide'));
    expect(calls).toHaveLength(2);
    const [resource, init] = calls[1] ?? [];
    expect(resource).toBe('http://node.example:4242/whep/out%2Bw/session');
    expect(init).toMatchObject({ method: 'DELETE', keepalive: true, headers: { authorization: `Bearer ${TOKEN}` } });
    playback.close();
    expect(calls).toHaveLength(3);
    expect(calls[2]?.[1]).not.toHaveProperty('keepalive');
    window.dispatchEvent(new Event('pagehide'));
    expect(calls).toHaveLength(3);
  });

  it('says the node could not be reached when the offer got no answer', async () => {
    vi.mocked(fetch).mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const video = { srcObject: null } as unknown as HTMLVideoElement;
    await expect(playWhep(URL, TOKEN, video)).rejects.toThrow(NODE_UNREACHABLE);
  });

  describe('with a connection opened ahead (preconnectWhep)', () => {
    const offers = () => vi.mocked(fetch).mock.calls.filter(([, init]) => init?.method === 'POST');

    it('plays it without offering again, its tracks in the element at once', async () => {
      preconnectWhep(Promise.resolve({ url: URL, token: TOKEN }));
      await vi.waitFor(() => expect(offers()).toHaveLength(1));
      const video = { srcObject: null } as unknown as HTMLVideoElement;
      const playback = await playWhep(URL, TOKEN, video);
      expect(video.srcObject).toBeInstanceOf(FakeMediaStream);
      expect(offers()).toHaveLength(1);
      playback.close();
      expect(video.srcObject).toBeNull();
      expect(vi.mocked(fetch).mock.calls.at(-1)?.[1]).toMatchObject({ method: 'DELETE' });
    });

    it('offers anew when the node refused the early offer (a stream not live yet)', async () => {
      vi.mocked(fetch).mockResolvedValueOnce(new Response('{"message":"The stream is not live"}', { status: 404 }));
      preconnectWhep(Promise.resolve({ url: URL, token: TOKEN }));
      await vi.waitFor(() => expect(offers()).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 0));
      const video = { srcObject: null } as unknown as HTMLVideoElement;
      const playback = await playWhep(URL, TOKEN, video);
      expect(offers()).toHaveLength(2);
      expect(video.srcObject).toBeInstanceOf(FakeMediaStream);
      playback.close();
    });

    it('closes one no player took within 10 s and ends its session', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout'] });
      try {
        preconnectWhep(Promise.resolve({ url: URL, token: TOKEN }));
        await vi.waitFor(() => expect(offers()).toHaveLength(1));
        await vi.advanceTimersByTimeAsync(10_000);
        const [resource, init] = vi.mocked(fetch).mock.calls.at(-1) ?? [];
        expect(resource).toBe('http://node.example:4242/whep/out%2Bw/session');
        expect(init).toMatchObject({ method: 'DELETE' });
      } finally {
        vi.useRealTimers();
      }
      // The next player offers anew.
      const playback = await playWhep(URL, TOKEN, { srcObject: null } as unknown as HTMLVideoElement);
      expect(offers()).toHaveLength(2);
      playback.close();
    });
  });
});
