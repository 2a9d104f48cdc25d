import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gathered } from './webrtc-signalling';

/** A peer connection as far as gathering goes: its state, and the candidates it announces. */
class GatheringPeer extends EventTarget {
  iceGatheringState: RTCIceGatheringState = 'gathering';
  announce(type: string | null) {
    const event = Object.assign(new Event('icecandidate'), { candidate: type === null ? null : { type } });
    this.dispatchEvent(event);
  }
  complete() {
    this.iceGatheringState = 'complete';
    this.dispatchEvent(new Event('icegatheringstatechange'));
  }
}

describe('gathered', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const track = (peer: GatheringPeer) => {
    let resolved = false;
    void gathered(peer as unknown as RTCPeerConnection).then(() => {
      resolved = true;
    });
    return () => resolved;
  };

  it('resolves shortly after the first host candidate, without waiting for gathering to complete', async () => {
    const peer = new GatheringPeer();
    const resolved = track(peer);
    await vi.advanceTimersByTimeAsync(100);
    expect(resolved()).toBe(false);
    peer.announce('host');
    await vi.advanceTimersByTimeAsync(39);
    expect(resolved()).toBe(false);
    peer.announce('host');
    await vi.advanceTimersByTimeAsync(1);
    expect(resolved()).toBe(true);
  });

  it('does not resolve on a server-reflexive or relay candidate alone; the cap ends the wait', async () => {
    const peer = new GatheringPeer();
    const resolved = track(peer);
    peer.announce('srflx');
    peer.announce('relay');
    await vi.advanceTimersByTimeAsync(999);
    expect(resolved()).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(resolved()).toBe(true);
  });

  it('resolves at once when gathering completes, or has already', async () => {
    const peer = new GatheringPeer();
    const resolved = track(peer);
    peer.complete();
    await vi.advanceTimersByTimeAsync(0);
    expect(resolved()).toBe(true);
    await expect(gathered(peer as unknown as RTCPeerConnection)).resolves.toBeUndefined();
  });
});
