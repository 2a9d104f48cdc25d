import { RELAY_FORMAT_LABELS, type Relay } from '@streamcloud/contract';
import type { JobCallbacks } from '@/components/stream-jobs/job-info-modal';
import type { JobSummary } from '@/components/stream-jobs/job-list-item';
import { StreamJobsScreen } from '@/components/stream-jobs/stream-jobs-screen';
import { formatBytes, formatDateTime } from '@/lib/format';
import { RELAYS } from '../utils/relays-feature';
import { RelayDestination } from './relay-destination';
import { RelayFormModal } from './relay-form-modal';
import { RelayInfoModal } from './relay-info-modal';
import { RelayStateBadge } from './relay-state-badge';

function summaryOf(relay: Relay): JobSummary {
  return {
    badge: <RelayStateBadge state={relay.state} />,
    heading: (titleId) => (
      <>
        <strong id={titleId}>{RELAY_FORMAT_LABELS[relay.format]}</strong>
        <RelayDestination relay={relay} />
      </>
    ),
    facts: [
      ['Uploaded', formatBytes(relay.uploaded)],
      ['Created', formatDateTime(relay.createdAt)],
    ],
  };
}

/** /streams/relay/{id}: a stream's relays, autostarting first, re-polled every 5 seconds. */
export function RelaysScreen({ callbacks }: { callbacks?: JobCallbacks } = {}) {
  return (
    <StreamJobsScreen
      feature={RELAYS}
      summary={summaryOf}
      renderForm={({ job, ...modal }) => <RelayFormModal {...modal} relay={job} />}
      renderInfo={(modal) => <RelayInfoModal {...modal} callbacks={callbacks} />}
    />
  );
}
