import { frameRate, type Playback, type PlaybackStats, type Rendition } from './preview-playback';

/**
 * HLS playback: hls.js (fetched on demand, its own chunk) where the browser has Media Source Extensions,
 * else the browser's native HLS (Safari). The credential goes as `?token=`, as the node reads it.
 */
export async function playHls(url: string, token: string, video: HTMLVideoElement): Promise<Playback> {
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
  const hls = new Hls({ lowLatencyMode: true, liveSyncDurationCount: 2 });
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
    async stats(): Promise<PlaybackStats> {
      const level = hls.levels[hls.currentLevel];
      return {
        ...sizeOf(video),
        ...hlsTiming(video, hls.latency),
        bitrate: level?.bitrate ?? null,
        ...frames(rate),
      };
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
