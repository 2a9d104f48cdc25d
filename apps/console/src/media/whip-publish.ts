import { endOnPageHide, endSession, offerTo } from './webrtc-signalling';

/** Where a publication stands, as the studio shows it. */
export type PublishState = 'Connecting' | 'Live' | 'Reconnecting' | 'Failed';

export interface Publication {
  /** Caps the video encoder (RTCRtpSender.setParameters), applied while live. */
  setBitrate(bitsPerSecond: number): Promise<void>;
  /**
   * Sends these tracks from now on (another camera, microphone, size or a shared screen) with
   * RTCRtpSender.replaceTrack: the same session, no new offer, the encodings (bitrate cap) kept.
   */
  replaceTracks(media: MediaStream): Promise<void>;
  /** Ends the WHIP session (DELETE on its Location) and closes the connection; the tracks stay the caller's. */
  stop(): Promise<void>;
}

/** ICE's view of the connection, in the studio's words ('new'/'checking' stay Connecting). */
function stateOf(ice: RTCIceConnectionState): PublishState | null {
  if (ice === 'connected' || ice === 'completed') return 'Live';
  if (ice === 'disconnected') return 'Reconnecting';
  if (ice === 'failed') return 'Failed';
  return null;
}

/**
 * Publishes `media` over WHIP with the browser's own RTCPeerConnection: a sendonly offer POSTed to the
 * stream's ingest URL (with its access token as a Bearer token for a private stream). The video's
 * maxBitrate is set in the offer's encodings, so the first frames already respect it.
 */
export async function publishWhip(
  url: string,
  token: string | null,
  media: MediaStream,
  maxBitrate: number,
  onState: (state: PublishState) => void,
): Promise<Publication> {
  const pc = new RTCPeerConnection();
  for (const track of media.getTracks()) {
    pc.addTransceiver(track, {
      direction: 'sendonly',
      streams: [media],
      ...(track.kind === 'video' ? { sendEncodings: [{ maxBitrate }] } : {}),
    });
  }
  pc.addEventListener('iceconnectionstatechange', () => {
    const state = stateOf(pc.iceConnectionState);
    if (state) onState(state);
  });
  onState('Connecting');
  let resource: string | null;
  try {
    resource = await offerTo(pc, url, token);
  } catch (error) {
    pc.close();
    throw error;
  }
  const unwatch = endOnPageHide(resource, token);
  // By kind, not by track: a sender's track changes with replaceTrack.
  const senders = pc.getSenders().map((sender) => ({ sender, kind: sender.track?.kind }));
  const video = senders.find(({ kind }) => kind === 'video')?.sender;
  return {
    async setBitrate(bitsPerSecond) {
      if (!video) return;
      const parameters = video.getParameters();
      for (const encoding of parameters.encodings ?? []) encoding.maxBitrate = bitsPerSecond;
      await video.setParameters(parameters);
    },
    async replaceTracks(next) {
      await Promise.all(
        senders.map(({ sender, kind }) =>
          sender.replaceTrack(next.getTracks().find((track) => track.kind === kind) ?? null),
        ),
      );
    },
    async stop() {
      unwatch();
      pc.close();
      if (resource) await endSession(resource, token);
      resource = null;
    },
  };
}
