import { SNAPSHOT_DIRECTIONS, type SnapshotDirection, type StreamStatus } from '@streamcloud/contract';
import { useEffect, useState } from 'react';
import { useSnapshotImage } from '@/data/snapshots/image';
import { useSnapshotSettings } from '@/data/snapshots/settings';

const TITLES: Record<SnapshotDirection, string> = { incoming: 'Incoming', outgoing: 'Outgoing' };

/** Snapshot previews are shown only in these statuses (section 2). */
export const PREVIEW_STATUSES: readonly StreamStatus[] = ['Ingestion', 'Fallback'];

/** An object URL for the blob, revoked when the blob changes or the preview goes. */
function useObjectUrl(blob: Blob | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

function Preview({
  streamId,
  direction,
  interval,
}: {
  streamId: string;
  direction: SnapshotDirection;
  interval: number;
}) {
  const image = useSnapshotImage(streamId, direction, interval, true);
  const url = useObjectUrl(image.data);
  const title = TITLES[direction];
  return (
    <figure className="mb-0 text-center">
      {url ? (
        <img src={url} alt={`${title} snapshot`} className="img-fluid rounded border" style={{ maxHeight: 220 }} />
      ) : (
        <div
          className="border rounded d-flex align-items-center justify-content-center text-secondary"
          style={{ width: 320, height: 180 }}
        >
          {image.isPending ? 'Loading…' : 'No snapshot yet'}
        </div>
      )}
      <figcaption className="small text-secondary mt-1">
        {title}, every {interval} s
      </figcaption>
    </figure>
  );
}

function Previews({ streamId }: { streamId: string }) {
  const incoming = useSnapshotSettings(streamId, 'incoming');
  const outgoing = useSnapshotSettings(streamId, 'outgoing');
  const settings = { incoming: incoming.data, outgoing: outgoing.data };
  const shown = SNAPSHOT_DIRECTIONS.filter((direction) => settings[direction]);
  if (incoming.isPending || outgoing.isPending) return null;
  if (shown.length === 0) return <p className="text-secondary mb-0">Snapshots are off for this stream.</p>;
  return (
    <div className="d-flex flex-wrap gap-3">
      {shown.map((direction) => (
        <Preview
          key={direction}
          streamId={streamId}
          direction={direction}
          interval={settings[direction]?.interval ?? 5}
        />
      ))}
    </div>
  );
}

/**
 * The dashboard's incoming and outgoing snapshot previews: shown only while the stream is in Ingestion
 * or Fallback, each refreshed at its direction's interval; nothing (and nothing kept) otherwise.
 */
export function SnapshotPreviews({ streamId, status }: { streamId: string; status: StreamStatus | undefined }) {
  if (!status || !PREVIEW_STATUSES.includes(status)) return null;
  return <Previews streamId={streamId} />;
}
