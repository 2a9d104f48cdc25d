import type { ErrorData } from 'hls.js';
import { NODE_UNREACHABLE, nodeMessage } from './node-message';
import { frameRate, type Playback, type PlaybackStats, type Rendition } from './playback';

/**
 * HLS playback: hls.js (fetched on demand, its own chunk) where the browser has Media Source Extensions,
 * else the browser's native HLS (Safari). The credential goes as `?token=`, as the node reads it.
 * `onFailure` hears why playback stopped for good (the node's refusal when it gave one). `lowLatency` is for a
 * Low-latency output (LL-HLS): the player then keeps the playlist's PART-HOLD-BACK behind live.
 */
export async function playHls(
  url: string,
  token: string,
  video: HTMLVideoElement,
  onFailure: (reason: string) => void = () => {},
  { lowLatency = false }: { lowLatency?: boolean } = {},
): Promise<Playback> {
  const source = new URL(url);
  source.searchParams.set('token', token);
  const { default: Hls } = await import('hls.js');
  const rate = frameRate(video);
  if (!Hls.isSupported()) {
    video.src = source.toString();
    return {
      close: () => video.removeAttribute('src'),
      renditions: () => [],
      pick: () => {},
      stats: async () => ({ ...sizeOf(video), ...hlsTiming(video, null), bitrate: null, ...frames(rate) }),
    };
  }
  const hls = new Hls(lowLatency ? LOW_LATENCY_CONFIG : STANDARD_CONFIG);
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) onFailure(hlsFailure(data));
  });
  // A passthrough output has no master playlist: hls.js knows no level bitrate, so it is measured.
  const loaded = fragmentBitrate();
  // The session's query (`?sid=…&token=…`) the node put on every URI of the playlist: the storyboard's too.
  let session: string | null = null;
  hls.on(Hls.Events.FRAG_LOADED, (_event, data) => {
    // An LL-HLS part's bytes are the part's, over the part's duration (not its segment's).
    if (data.frag.type === 'main') loaded.add(data.payload.byteLength, data.part?.duration ?? data.frag.duration);
    // A part's own URI: at the live edge a player may load only parts of segments not yet complete, which have no
    // URI of their own (hls.js gives them an empty url), so the session would never be known from the segment's.
    session ??= sessionQuery(data.part?.url || data.frag.url);
  });
  hls.loadSource(source.toString());
  hls.attachMedia(video);
  return {
    close: () => hls.destroy(),
    renditions: (): Rendition[] =>
      hls.levels.length < 2
        ? []
        : hls.levels.map((level, index) => ({
            index,
            label: `${level.height ? `${level.height}p` : 'audio'} · ${Math.round(level.bitrate / 1000)} kb/s`,
          })),
    pick: (index) => {
      hls.currentLevel = index;
    },
    programDate: () => hls.playingDate,
    storyboardUrl: () => (session ? new URL(`storyboard.vtt${session}`, source).toString() : null),
    async stats(): Promise<PlaybackStats> {
      const level = hls.levels[hls.currentLevel];
      return {
        ...sizeOf(video),
        ...hlsTiming(video, hls.latency),
        glassToGlassSeconds: sinceDate(hls.playingDate),
        bitrate: loaded.bitrate() ?? (level?.bitrate || null),
        ...frames(rate),
      };
    },
  };
}

/**
 * A Standard (MPEG-TS) playlist has 1 s fragments and no hold-back: two fragments behind live rather than
 * hls.js's default three. For LL-HLS, any liveSync setting would override the playlist's PART-HOLD-BACK
 * (hls.js prefers the user's config), which held the player ~3 s behind (decisions.md, LL-HLS latency):
 * none is set, and a player that falls behind catches up by playing up to 1.5× rather than by seeking.
 */
const STANDARD_CONFIG = { lowLatencyMode: true, liveSyncDurationCount: 2 };
const LOW_LATENCY_CONFIG = { lowLatencyMode: true, maxLiveSyncPlaybackRate: 1.5 };

/** The query of a fragment's URI when it carries the node's session id (`?sid=…`), else null. */
export function sessionQuery(uri: string): string | null {
  try {
    const { search, searchParams } = new URL(uri);
    return searchParams.has('sid') ? search : null;
  } catch {
    return null;
  }
}

/** Fragments the measured bitrate is averaged over: a few seconds of the stream. */
const MEASURED_FRAGMENTS = 5;

/**
 * The bitrate of the fragments loaded last (bytes × 8 ÷ their duration), as the WebRTC overlay measures its
 * bytes received: null before the first fragment with a duration.
 */
export function fragmentBitrate(window = MEASURED_FRAGMENTS) {
  const recent: Array<{ bytes: number; seconds: number }> = [];
  return {
    add(bytes: number, seconds: number) {
      if (!(seconds > 0) || !(bytes >= 0)) return;
      recent.push({ bytes, seconds });
      if (recent.length > window) recent.shift();
    },
    bitrate(): number | null {
      const seconds = recent.reduce((sum, fragment) => sum + fragment.seconds, 0);
      const bytes = recent.reduce((sum, fragment) => sum + fragment.bytes, 0);
      return seconds > 0 ? (bytes * 8) / seconds : null;
    },
  };
}

function frames(rate: ReturnType<typeof frameRate>) {
  const { fps, frames } = rate();
  return { fps, framesDecoded: frames };
}

function sizeOf(video: HTMLVideoElement) {
  return { width: video.videoWidth || null, height: video.videoHeight || null };
}

/** Seconds buffered ahead of the playhead, and behind the live edge (hls.js's latency, else the seekable end). */
function hlsTiming(video: HTMLVideoElement, latency: number | null) {
  const { buffered, seekable, currentTime } = video;
  const bufferSeconds = buffered.length > 0 ? Math.max(0, buffered.end(buffered.length - 1) - currentTime) : null;
  const edge = seekable.length > 0 ? seekable.end(seekable.length - 1) - currentTime : null;
  const liveEdgeSeconds = latency && Number.isFinite(latency) ? latency : edge;
  return { bufferSeconds, liveEdgeSeconds, latencySeconds: liveEdgeSeconds };
}

/** Seconds from a frame's program date (the node's clock) to now; null without one. */
export function sinceDate(date: Date | null, now = Date.now()): number | null {
  return date ? (now - date.getTime()) / 1000 : null;
}

/** Why hls.js gave up: the node's refusal (its answers carry CORS headers, so it can be read), else hls.js's. */
export function hlsFailure(data: Pick<ErrorData, 'details' | 'response' | 'networkDetails'>): string {
  let body = '';
  try {
    // A fragment's request reads binary: its responseText throws.
    body = String((data.networkDetails as XMLHttpRequest | null | undefined)?.responseText ?? '');
  } catch {
    body = '';
  }
  const status = data.response?.code;
  if (status === 0) return NODE_UNREACHABLE;
  return nodeMessage(body) ?? (status ? `the node answered ${status}` : data.details);
}
