import type { PlayInfo } from '@streamcloud/contract';

/** The texts of the player's status line (role="status"). */
export const PLAY_TEXTS = {
  offline: 'The stream is offline',
  starting: 'The stream is starting',
  notFound: 'There is no such player',
  notBrowser: 'This output cannot be played in a browser',
  noWebRtc: 'This browser cannot play WebRTC: ask for the HLS output of this stream',
  unreachable: 'The player cannot reach the server; trying again',
  stuck: 'the picture stopped moving',
  ended: 'the stream ended',
  noPicture: 'no picture came over WebRTC',
} as const;

/**
 * A playback whose picture moved once and then stood still this long (not paused) is started again: an HLS player
 * waits for a playlist that will not go on after its push left and came back, and says nothing. One that ended (an
 * HLS playlist closed as its push left) is started again at the next look.
 */
export const STUCK_MS = 10_000;
/**
 * A WHEP playback whose picture has not moved this long after its start, on a page that has an HLS fallback, gives
 * way to it: the signalling went through but no media comes (UDP blocked by a firewall or a proxy), which the
 * browser itself may take 30 s to call failed.
 */
export const WHEP_FIRST_FRAME_MS = 10_000;
/** How often a playing page looks at its picture's time. */
export const STUCK_CHECK_MS = 2_000;

/** Which player plays the output, and its URL. */
export type Source = { kind: 'whep'; url: string } | { kind: 'hls'; url: string; lowLatency: boolean };

/** What the page does with what the API says of its output: play it, or say why not (and poll). */
export type View = { kind: 'play'; source: Source } | { kind: 'wait'; message: string };

/** Statuses in which the stream has a picture to show. */
const LIVE = new Set<PlayInfo['streamStatus']>(['Ingestion', 'Fallback']);

/**
 * The view for the output as the public read answered it. The page plays the output it is for: a WebRTC
 * output over WHEP, an HLS output over HLS. `webrtc` says whether the browser has RTCPeerConnection; without
 * it a WebRTC output plays its stream's HLS output when the API gave one (`playback.hls`), else says why not.
 */
export function viewOf(info: PlayInfo, webrtc: boolean): View {
  if (info.format !== 'WebRTC' && info.format !== 'HLS') return { kind: 'wait', message: PLAY_TEXTS.notBrowser };
  if (info.streamStatus === 'Idle' || info.streamStatus === 'Error')
    return { kind: 'wait', message: PLAY_TEXTS.offline };
  const { whep, hls } = info.playback;
  // Pending, or live but not yet on a node that serves this output.
  if (!LIVE.has(info.streamStatus) || !(whep ?? hls)) return { kind: 'wait', message: PLAY_TEXTS.starting };
  if (whep && webrtc) return { kind: 'play', source: { kind: 'whep', url: whep } };
  if (!hls) return { kind: 'wait', message: PLAY_TEXTS.noWebRtc };
  return { kind: 'play', source: { kind: 'hls', url: hls, lowLatency: info.hlsLatency === 'Low' } };
}

/** Polling while not playing: every few seconds at first, then less often, never over the bound. */
export const POLL_FIRST_MS = 3_000;
export const POLL_MAX_MS = 15_000;

/** The wait before poll number `attempt` (0-based) of one unchanged state. */
export function pollDelay(attempt: number): number {
  return Math.min(POLL_MAX_MS, Math.round(POLL_FIRST_MS * 1.5 ** Math.max(0, attempt)));
}

/** Why a playback failed, as the status line says it: the node's refusal is its own words. */
export function failureText(format: 'whep' | 'hls', reason: string): string {
  return `${format === 'whep' ? 'WebRTC' : 'HLS'} playback failed: ${reason}`;
}
