import type { PlaybackErrorKind } from '@streamcloud/contract';
import type { Beacon } from './beacon';
import type { Playback } from './playback';

/** How often the monitor reports watch time and samples latency and rendition. */
export const SAMPLE_INTERVAL_MS = 5_000;

export interface PlaybackMonitor {
  /** The playback answered (WHEP answer, HLS playlist): the startup time ends here. */
  started(playback: Playback): void;
  /** The playback failed, and why. */
  failed(kind: PlaybackErrorKind, message: string): void;
  /** The playback ends: a stall still going and the watch time so far are reported, and the beacon sent. */
  close(): void;
}

/** The kind of a playback failure, from the player's reason (the node's message or the browser's). */
export function errorKindOf(source: 'whep' | 'hls', reason: string): PlaybackErrorKind {
  if (/\b(401|403)\b|token|credential|unauthori[sz]ed|forbidden|denied|not allowed/i.test(reason)) return 'access';
  if (/decod/i.test(reason)) return 'decode';
  if (/network|fetch|timed? ?out|reach|offline/i.test(reason)) return 'network';
  return source === 'whep' ? 'signalling' : 'media';
}

/**
 * Watches one playback in its video element and reports it through the beacon: startup and time to first
 * frame (the first `playing`), stalls (`waiting` after the first frame, until `playing` again), time played,
 * latency to live and the rendition (sampled from the playback's stats), and failures.
 */
export function monitorPlayback(video: HTMLVideoElement, beacon: Beacon): PlaybackMonitor {
  let playback: Playback | null = null;
  let startupMs: number | null = null;
  let firstFrame = false;
  let state: 'starting' | 'playing' | 'stalled' | 'paused' = 'starting';
  let since = beacon.elapsed();
  let stallAt = 0;
  let watched = 0;
  let rendition = '';
  let closed = false;

  /** Adds the time played since the last change of state. */
  const settle = () => {
    const now = beacon.elapsed();
    if (state === 'playing') watched += now - since;
    since = now;
    return now;
  };
  const endStall = (now: number) => {
    if (state === 'stalled') beacon.record({ type: 'rebuffer', durationMs: Math.min(600_000, now - stallAt) }, stallAt);
  };
  const reportWatched = () => {
    if (watched > 0) beacon.record({ type: 'watch', watchedMs: Math.min(600_000, Math.round(watched)) });
    watched = 0;
  };

  const onPlaying = () => {
    const now = settle();
    if (!firstFrame) {
      firstFrame = true;
      beacon.record({ type: 'startup', startupMs: startupMs ?? now, ttffMs: now });
      // Sent at once: the session shows in the analytics as soon as it plays, not at the next interval.
      beacon.flush();
    }
    endStall(now);
    state = 'playing';
  };
  const onWaiting = () => {
    const now = settle();
    if (firstFrame && state === 'playing') {
      state = 'stalled';
      stallAt = now;
    }
  };
  const onPause = () => {
    const now = settle();
    endStall(now);
    state = 'paused';
  };
  video.addEventListener('playing', onPlaying);
  video.addEventListener('waiting', onWaiting);
  video.addEventListener('pause', onPause);

  const sample = async () => {
    settle();
    reportWatched();
    const stats = await playback?.stats().catch(() => null);
    if (!stats || closed) return;
    if (stats.latencySeconds !== null && stats.latencySeconds >= 0) {
      beacon.record({ type: 'latency', latencyMs: Math.min(600_000, Math.round(stats.latencySeconds * 1000)) });
    }
    const size = `${stats.width ?? 0}x${stats.height ?? 0}`;
    if (stats.width && stats.height && size !== rendition) {
      rendition = size;
      beacon.record({
        type: 'rendition',
        width: stats.width,
        height: stats.height,
        bitrate: Math.round(Math.min(1e9, stats.bitrate ?? 0)),
      });
    }
  };
  const timer = setInterval(() => void sample(), SAMPLE_INTERVAL_MS);

  return {
    started(started) {
      playback = started;
      startupMs ??= beacon.elapsed();
    },
    failed(kind, message) {
      beacon.record({ type: 'error', kind, message });
    },
    close() {
      if (closed) return;
      closed = true;
      clearInterval(timer);
      video.removeEventListener('playing', onPlaying);
      video.removeEventListener('waiting', onWaiting);
      video.removeEventListener('pause', onPause);
      endStall(settle());
      reportWatched();
      beacon.close();
    },
  };
}
