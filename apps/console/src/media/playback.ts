/** A running playback in the preview's video element; `stats()` reads the figures of the overlay. */
export interface Playback {
  stats(): Promise<PlaybackStats>;
  /** The renditions of an adaptive HLS output (empty otherwise); `pick(-1)` is automatic. */
  renditions(): Rendition[];
  pick(index: number): void;
  close(): void;
  /** HLS: the program date-time (EXT-X-PROGRAM-DATE-TIME) of the frame shown now, which clips are cut by; else null. */
  programDate?(): Date | null;
  /**
   * HLS: the address of the output's storyboard (its WebVTT, `storyboard.vtt` beside the playlist) in this playback's
   * session (its `sid` and credential), once a fragment came; else null.
   */
  storyboardUrl?(): string | null;
}

export interface Rendition {
  index: number;
  label: string;
}

export interface PlaybackStats {
  width: number | null;
  height: number | null;
  fps: number | null;
  /** Bits per second received (WebRTC) or of the playing rendition (HLS). */
  bitrate: number | null;
  /** WebRTC: round-trip time and jitter, in ms. */
  rttMs?: number | null;
  jitterMs?: number | null;
  /** HLS: seconds buffered ahead, and behind the live edge. */
  bufferSeconds?: number | null;
  liveEdgeSeconds?: number | null;
  /**
   * HLS: now − the playing frame's EXT-X-PROGRAM-DATE-TIME (the node's clock when it reached its ingest),
   * in seconds: glass-to-glass but for the publisher's own capture and upload (docs/decisions.md).
   */
  glassToGlassSeconds?: number | null;
  /** The player's own latency figure, in seconds (see docs/decisions.md). */
  latencySeconds: number | null;
  /** Video frames decoded so far. */
  framesDecoded: number | null;
}

/** Frames per second from the element's decoded-frame count between two reads. */
export function frameRate(video: HTMLVideoElement): () => { fps: number | null; frames: number | null } {
  let last: { frames: number; at: number } | null = null;
  return () => {
    const quality = video.getVideoPlaybackQuality?.();
    if (!quality) return { fps: null, frames: null };
    const now = { frames: quality.totalVideoFrames, at: performance.now() };
    const previous = last;
    last = now;
    if (!previous || now.at <= previous.at) return { fps: null, frames: now.frames };
    return { fps: ((now.frames - previous.frames) * 1000) / (now.at - previous.at), frames: now.frames };
  };
}
