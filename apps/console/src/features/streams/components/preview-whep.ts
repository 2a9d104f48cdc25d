import { endOnPageHide, endSession, offerTo } from '../utils/webrtc-signalling';
import type { Playback, PlaybackStats } from './preview-playback';

/**
 * WebRTC playback over WHEP with the browser's own RTCPeerConnection: a recvonly offer (VP8 video, Opus
 * audio) POSTed to the output's signalling URL with the credential as a Bearer token; the answer's
 * Location is the session, DELETEd on close.
 */
export async function playWhep(
  url: string,
  token: string,
  video: HTMLVideoElement,
  signal?: AbortSignal,
): Promise<Playback> {
  const pc = new RTCPeerConnection();
  pc.addTransceiver('video', { direction: 'recvonly' });
  pc.addTransceiver('audio', { direction: 'recvonly' });
  const stream = new MediaStream();
  pc.ontrack = (event) => {
    stream.addTrack(event.track);
    // Tracks arrive while the answer is applied: by then the user may have picked another output, whose
    // playback owns the element (taking it back would detach hls.js's Media Source for good).
    if (!signal?.aborted) video.srcObject = stream;
  };
  let resource: string | null = null;
  let unwatch = () => {};
  const close = () => {
    unwatch();
    pc.close();
    if (video.srcObject === stream) video.srcObject = null;
    if (resource) void endSession(resource, token);
  };
  try {
    resource = await offerTo(pc, url, token);
  } catch (error) {
    close();
    throw error;
  }
  unwatch = endOnPageHide(resource, token);
  let last: { bytes: number; at: number } | null = null;
  return {
    close,
    renditions: () => [],
    pick: () => {},
    async stats(): Promise<PlaybackStats> {
      const report = await pc.getStats();
      let inbound: Record<string, number> | null = null;
      let rtt: number | null = null;
      report.forEach((entry: Record<string, unknown>) => {
        if (entry.type === 'inbound-rtp' && entry.kind === 'video') inbound = entry as Record<string, number>;
        if (entry.type === 'candidate-pair' && entry.nominated && typeof entry.currentRoundTripTime === 'number')
          rtt = entry.currentRoundTripTime;
      });
      const video = inbound as Record<string, number> | null;
      const now = { bytes: video?.bytesReceived ?? 0, at: performance.now() };
      const bitrate = last && now.at > last.at ? ((now.bytes - last.bytes) * 8 * 1000) / (now.at - last.at) : null;
      last = now;
      // The jitter buffer's mean delay plus half the round trip: what the player adds to the sender's time.
      const buffered =
        video?.jitterBufferEmittedCount && video.jitterBufferDelay !== undefined
          ? video.jitterBufferDelay / video.jitterBufferEmittedCount
          : null;
      const rttSeconds = rtt as number | null;
      return {
        width: video?.frameWidth ?? null,
        height: video?.frameHeight ?? null,
        fps: video?.framesPerSecond ?? null,
        bitrate,
        rttMs: rttSeconds === null ? null : rttSeconds * 1000,
        jitterMs: video?.jitter === undefined ? null : video.jitter * 1000,
        latencySeconds: buffered === null ? null : buffered + (rttSeconds ?? 0) / 2,
        framesDecoded: video?.framesDecoded ?? null,
      };
    },
  };
}
