/**
 * The browser's RTCPeerConnection at a unit's edge: an offer ('v=0 offer'), gathering already complete,
 * nothing received. Tests extend it to record what they check.
 */
export class FakePeerConnection {
  iceGatheringState = 'complete';
  localDescription: { sdp: string } | null = null;
  closed = false;
  addTransceiver(..._args: unknown[]) {}
  addEventListener(..._args: unknown[]) {}
  removeEventListener() {}
  async createOffer() {
    return { type: 'offer', sdp: 'v=0 offer' };
  }
  async setLocalDescription(description: { sdp: string }) {
    this.localDescription = description;
  }
  async setRemoteDescription() {}
  async getStats() {
    return new Map();
  }
  close() {
    this.closed = true;
  }
}
