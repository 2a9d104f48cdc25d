import { RELAY_FORMAT_LABELS } from '@streamcloud/contract';
import { StreamJobsList } from '@/components/stream-jobs/stream-jobs-list';
import { RELAYS } from '../utils/relays-feature';
import { RelayDestination } from './relay-destination';
import { RelayStateBadge } from './relay-state-badge';

/** The relays part of the stream dashboard's 'Recordings and Relays' card. */
export function StreamRelaysList({ streamId }: { streamId: string }) {
  return (
    <StreamJobsList
      streamId={streamId}
      feature={RELAYS}
      renderLine={(relay) => (
        <>
          <RelayStateBadge state={relay.state} />
          <strong>{RELAY_FORMAT_LABELS[relay.format]}</strong>
          <span className="text-truncate">
            <RelayDestination relay={relay} />
          </span>
        </>
      )}
    />
  );
}
