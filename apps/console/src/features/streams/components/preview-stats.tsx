import type { PlaybackStats } from '@/media/playback';

const fixed = (value: number | null | undefined, digits: number, unit: string) =>
  value === null || value === undefined ? '–' : `${value.toFixed(digits)} ${unit}`;

/** The preview's figures over the picture: what plays, how fast, and how far behind. */
export function StatsOverlay({ stats, format }: { stats: PlaybackStats | null; format: string }) {
  const rows: [string, string][] = [
    ['Resolution', stats?.width && stats.height ? `${stats.width}×${stats.height}` : '–'],
    ['Frame rate', fixed(stats?.fps, 0, 'fps')],
    ['Bitrate', fixed(stats?.bitrate ? stats.bitrate / 1000 : null, 0, 'kb/s')],
  ];
  if (format === 'WebRTC')
    rows.push(['Round trip', fixed(stats?.rttMs, 0, 'ms')], ['Jitter', fixed(stats?.jitterMs, 1, 'ms')]);
  else
    rows.push(
      ['Buffer', fixed(stats?.bufferSeconds, 1, 's')],
      ['Behind live edge', fixed(stats?.liveEdgeSeconds, 1, 's')],
      ['Glass to glass', fixed(stats?.glassToGlassSeconds, 2, 's')],
    );
  rows.push(['Latency', fixed(stats?.latencySeconds, 2, 's')], ['Frames decoded', String(stats?.framesDecoded ?? '–')]);
  return (
    <dl
      aria-label="Playback statistics"
      className="position-absolute top-0 start-0 m-2 p-2 small text-white bg-dark bg-opacity-75 rounded mb-0"
    >
      {rows.map(([name, value]) => (
        <div key={name} className="d-flex gap-2">
          <dt className="fw-normal">{name}</dt>
          <dd className="mb-0 font-monospace">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
