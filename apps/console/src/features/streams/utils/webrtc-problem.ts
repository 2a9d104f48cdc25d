import { type StatusMessage, WEBRTC_PLAYBACK_FAILED } from '@streamcloud/contract';

/**
 * Why the node cannot play the stream over WebRTC now: its message about the WHEP feed since the push
 * started (messages come newest first), else null (none, or one of an earlier push).
 */
export function webrtcPlaybackProblem(messages: readonly StatusMessage[]): string | null {
  for (const message of messages) {
    if (/^Push (started|resumed)\b/.test(message.text)) return null;
    if (message.text.startsWith(WEBRTC_PLAYBACK_FAILED)) return message.text;
  }
  return null;
}
