import { RELAY_FORMAT_LABELS } from '@streamcloud/contract';
import { Link } from 'react-router';
import { Loading } from '@/components/ui/loading';
import { useStreamRelays } from '../api/get-stream-relays';
import { RELAYS_LOAD_FAILED } from '../utils/messages';
import { splitByAutostart } from '../utils/relay-actions';
import { RelayDestination } from './relay-destination';
import { RelayStateBadge } from './relay-state-badge';

/**
 * The relays part of the stream dashboard's 'Recordings and Relays' card: autostarting first,
 * re-polled every 5 seconds (the same query as the relay dashboard).
 */
export function StreamRelaysList({ streamId }: { streamId: string }) {
  const relays = useStreamRelays(streamId);
  const { autostarting, others } = splitByAutostart(relays.data ?? []);
  const items = [...autostarting, ...others];
  return (
    <section aria-labelledby={`stream-relays-${streamId}`} className="mb-3">
      <div className="d-flex justify-content-between align-items-center mb-1">
        <h3 id={`stream-relays-${streamId}`} className="h6 mb-0">
          Relays
        </h3>
        <Link to={`/streams/relay/${streamId}`} className="small">
          Manage relays
        </Link>
      </div>
      {relays.isPending ? (
        <Loading />
      ) : relays.isError && !relays.data ? (
        <p className="small text-danger mb-0">{RELAYS_LOAD_FAILED}</p>
      ) : items.length === 0 ? (
        <p className="small text-secondary mb-0">No relays.</p>
      ) : (
        <ul className="list-unstyled mb-0">
          {items.map((relay) => (
            <li key={relay.id} className="d-flex align-items-center gap-2 small py-1">
              <RelayStateBadge state={relay.state} />
              <strong>{RELAY_FORMAT_LABELS[relay.format]}</strong>
              <span className="text-truncate">
                <RelayDestination relay={relay} />
              </span>
              {relay.autostart && <span className="text-secondary">autostart</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
