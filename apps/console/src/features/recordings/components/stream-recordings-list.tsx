import { Link } from 'react-router';
import { Loading } from '@/components/ui/loading';
import { useStreamRecordings } from '../api/get-stream-recordings';
import { RECORDINGS_LOAD_FAILED } from '../utils/messages';
import { splitByAutostart } from '../utils/recording-actions';
import { RecordingStateBadge } from './recording-state-badge';

/**
 * The recordings part of the stream dashboard's 'Recordings and Relays' card: autostarting first,
 * re-polled every 5 seconds (the same query as the recording dashboard).
 */
export function StreamRecordingsList({ streamId }: { streamId: string }) {
  const recordings = useStreamRecordings(streamId);
  const { autostarting, others } = splitByAutostart(recordings.data ?? []);
  const items = [...autostarting, ...others];
  return (
    <section aria-labelledby={`stream-recordings-${streamId}`} className="mb-3">
      <div className="d-flex justify-content-between align-items-center mb-1">
        <h3 id={`stream-recordings-${streamId}`} className="h6 mb-0">
          Recordings
        </h3>
        <Link to={`/streams/recording/${streamId}`} className="small">
          Manage recordings
        </Link>
      </div>
      {recordings.isPending ? (
        <Loading />
      ) : recordings.isError && !recordings.data ? (
        <p className="small text-danger mb-0">{RECORDINGS_LOAD_FAILED}</p>
      ) : items.length === 0 ? (
        <p className="small text-secondary mb-0">No recordings.</p>
      ) : (
        <ul className="list-unstyled mb-0">
          {items.map((recording) => (
            <li key={recording.id} className="d-flex align-items-center gap-2 small py-1">
              <RecordingStateBadge state={recording.state} />
              <code className="text-truncate">{recording.fileName}</code>
              <span className="text-secondary">{recording.fileFormat}</span>
              {recording.autostart && <span className="text-secondary">autostart</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
