import type { StreamStatus } from '@streamcloud/contract';
import broadcastIcon from 'bootstrap-icons/icons/broadcast.svg?raw';
import hourglassSplitIcon from 'bootstrap-icons/icons/hourglass-split.svg?raw';
import { Icon } from '@/components/ui/icon';

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
      <Icon
        svg={ingestion ? broadcastIcon : hourglassSplitIcon}
        className={`${ingestion ? 'text-success' : 'text-primary'} me-2`}
      />
      {ingestion ? INGESTION_CALLOUT : PENDING_CALLOUT}
    </div>
  );
}
