import type { TrackInfo } from '@streamcloud/contract';
import type { VideoCoding } from '../probe.js';
import type { AssignedStream } from './directory.js';

/** How a stream's content arrives: a push in its format, or (Internode) the node's pull of its source stream. */
export type PushProtocol = 'RTMP' | 'SRT' | 'WebRTC' | 'RTSP' | 'Internode';
/** The output formats the node plays: RTMP (nginx), HLS (nginx's fragments), WebRTC (WHEP), SRT (MPEG-TS). */
export type PlayFormat = 'RTMP' | 'HLS' | 'WebRTC' | 'SRT';

/** What a protocol front end hands over for one accepted push. */
export interface PublishHandle {
  /** The stream's name inside nginx-rtmp: its HLS fragments are under `<hlsDir>/<rawName>/`. */
  rawName: string;
  remoteAddress: string | null;
  /** Bytes the publisher sent to the node and the node sent back, since the push began. */
  bytesIn(): number;
  bytesOut(): number;
  /** Disconnects the publisher at once. */
  kick(): void;
  /** The push's transport counters, where its protocol exposes them (WebRTC); absent: not measured. */
  transport?(): TransportStats;
}

/** What a push's transport measured since the push began (counters are cumulative). */
export interface TransportStats {
  /** Media packets the node received from the publisher. */
  packetsReceived: number;
  /** Packets the publisher sent that never arrived (gaps in the sequence numbers). */
  packetsLost: number;
  /** Packets the publisher sent again; null: the protocol does not tell them apart. */
  packetsRetransmitted: number | null;
  /** Packets that arrived but were discarded (too late); null: not measured. */
  packetsDropped: number | null;
  /** The latest round-trip time between node and publisher (ms); null while none was measured. */
  rttMs: number | null;
}

/**
 * One nginx-rtmp stream the node's viewers can be given: the push itself, or a rendition a pipeline
 * publishes back into nginx (under the stream id and a suffix). HLS fragments are under `<hlsDir>/<hlsName>/`.
 */
export interface MediaTrackSource {
  /** The nginx-rtmp stream name RTMP players and the node's own players (WHEP, snapshots) are sent to. */
  rtmpName: string;
  /** The directory name of its HLS fragments. */
  hlsName: string;
  /** How its video is coded, probed from its first fragment (WHEP sends H.264 as it is when it may); absent until then, null without video. */
  coding?: VideoCoding | null;
}

/** An HLS variant of a transcoded stream: one video rendition (and its audio), as the master playlist lists it. */
export interface Rendition extends MediaTrackSource {
  /** Path segment of its playlist under the output's URL: `/hls/<output>/<key>/index.m3u8`. */
  key: string;
  /** The configured bitrate of its video and audio together (b/s): the master playlist's BANDWIDTH. */
  bandwidth: number;
  /** Probed from its first fragment (RESOLUTION, CODECS); null until then. */
  width: number | null;
  height: number | null;
  codecs: string | null;
  /** Its tracks as ffprobe read them from its first fragment (what a capture of the renditions picks from). */
  tracks: TrackInfo[];
}

/** What the node's WebRTC feed encodes for a stream (from its ladder's VP8 and Opus tracks); defaults when null. */
export interface WebRtcEncoding {
  video: { width: number; height: number; framerate: number; bitrate: number; keyInterval: number } | null;
  audio: { rate: number; channels: number; bitrate: number } | null;
}

/** What the stream's viewers get: the push as it came, or the renditions of its transcoder. */
export interface Outgoing {
  /** RTMP and WebRTC viewers and the outgoing snapshot get this (the top rendition, or the push). */
  main: MediaTrackSource;
  /** HLS variants; null: HLS plays `main` as one media playlist. */
  renditions: Rendition[] | null;
}

/**
 * A push going on: the live stream every part of the node works from (viewers, reports, pipelines).
 * A push that ends and resumes within the reconnect grace is a new LiveStream of the same stream.
 */
export interface LiveStream {
  id: string;
  assigned: AssignedStream;
  protocol: PushProtocol;
  handle: PublishHandle;
  startedAt: Date;
  ended: boolean;
  /** Why the push failed; null while it goes on or when it ended cleanly. */
  failure: string | null;
  /** The reporter's sequence of the Ingestion report: a later Idle from the control plane is a Stop. */
  ingestionSeq: number;
  stoppedByControlPlane: boolean;
  firstFragmentAt: number | null;
  /** The push's tracks as ffprobe read them from its first fragment; null until then. */
  tracks: TrackInfo[] | null;
  /**
   * Set when this is not a push but a fallback the node plays into the stream's own name after the push
   * dropped (pipelines/fallback): viewers, pipelines and outputs treat it as the stream's content, billing
   * does not count it as ingest.
   */
  fallback: { id: string; label: string } | null;
  /**
   * Set on a push that came back while the stream showed Fallback, until its first fragment: only then is
   * it reported (Ingestion, `text`); one that drops before gives the stream back to its fallback without a
   * status change. `tracks`: those of the push the fallback replaced (its picture's size if it plays again).
   */
  returning: { text: string; tracks: TrackInfo[] | null } | null;
  /**
   * Set on an edge node: not a push but the stream pulled from its ingest node (named here) for this node's
   * viewers (pipelines/edge). Its viewers watch it like a push; no pipeline runs on it, nothing about the
   * stream's state is reported, and its bytes are internode usage, not ingest.
   */
  pulledFrom: string | null;
  /** The push as nginx carries it: the source every pipeline reads. */
  source: MediaTrackSource;
  /** What viewers get; a transcoder replaces it with its renditions while they run. */
  outgoing: Outgoing;
  /** The WebRTC feed's encoding when the stream's ladder sets it; null: the feed's defaults. */
  webrtc: WebRtcEncoding | null;
  /** A transcoder's ladder runs now (billed as processing Transcode). */
  transcoding: boolean;
  /** A ladder ran at some time since the last usage report. */
  transcodedSinceReport: boolean;
  reported: { bytesIn: number; bytesOut: number; at: number };
}

/** What a signed playback token granted a session (streams/signed-playback.ts). */
export interface SignedGrant {
  token: string;
  kid: string;
  /** What its sessions are counted by (`maxSessions`): its `jti`, or the token itself without one. */
  countedAs: string;
  jti: string | null;
  /** When the session must end (`maxSessionSeconds` after its start), or null. */
  endsAt: Date | null;
  /**
   * A stream-wide token (`sub`: the stream) that caps its sessions: their digest (`tokenSessionId`), which the node
   * reports with the session so the stream's other nodes count it too; null for any other token.
   */
  sharedAs: string | null;
  /** The token's `maxSessions`, or null. */
  maxSessions: number | null;
}

export interface ViewerSession {
  id: string;
  streamId: string;
  outputId: string;
  format: PlayFormat;
  ipAddress: string | null;
  startedAt: Date;
  /**
   * The console's preview player (admitted with a preview credential): reported as the output's preview
   * count, neither in its viewer sessions nor in ConcurrentViewers, OutgoingBitrate or billed usage.
   */
  preview: boolean;
  /** A Signed output's session: the playback token it was admitted with (it ends when that is revoked or over). */
  grant?: SignedGrant;
  bytesOut(): number;
  bytesIn(): number;
  /** Disconnects the viewer; `reason`, when given, is a text its player may be shown (a refused playback token). */
  kick(reason?: string): void;
  ended: boolean;
  reported: { bytesIn: number; bytesOut: number; at: number };
}
