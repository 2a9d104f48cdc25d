import type { StreamStatus } from '@streamcloud/contract';

export const PENDING_CALLOUT =
  'The stream is pending: it is waiting to be assigned to a media node. Its endpoint appears once it is.';
export const INGESTION_CALLOUT = 'The stream is live: its media node is receiving it.';

/** The Pending and Ingestion statuses show a callout; the others show nothing. */
export function StreamCallout({ status }: { status: StreamStatus }) {
  if (status !== 'Pending' && status !== 'Ingestion') return null;
  const ingestion = status === 'Ingestion';
  return (
    <div
      role="note"
      aria-label="Stream status"
      className={`stream-callout ${ingestion ? 'stream-callout-ingestion' : ''} bg-body-tertiary rounded px-3 py-2 mb-3`}
    >
      <i
        className={`bi ${ingestion ? 'bi-broadcast text-success' : 'bi-hourglass-split text-primary'} me-2`}
        aria-hidden="true"
      />
      {ingestion ? INGESTION_CALLOUT : PENDING_CALLOUT}
    </div>
  );
}
