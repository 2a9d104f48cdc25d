import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NODE_UNREACHABLE } from '../utils/node-message';
import { playWhep } from './preview-whep';

const URL = 'http://node.example:4242/whep/out%2Bw';
const TOKEN = 'pv1.1900000000.signature';

/** The browser's RTCPeerConnection at the unit's edge: applying the answer brings the video track, as in Chromium. */
class TrackOnAnswer {
  iceGatheringState = 'complete';
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

describe('playWhep', () => {
  beforeEach(() => {
    vi.stubGlobal('RTCPeerConnection', TrackOnAnswer);
    vi.stubGlobal('MediaStream', FakeMediaStream);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('v=0 answer', { status: 201, headers: { location: '/whep/out%2Bw/session' } })),
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
});
