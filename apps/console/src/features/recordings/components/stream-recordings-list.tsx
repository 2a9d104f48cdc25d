import { StreamJobsList } from '@/components/stream-jobs/stream-jobs-list';
import { RECORDINGS } from '../utils/recordings-feature';
import { RecordingStateBadge } from './recording-state-badge';

/** The recordings part of the stream dashboard's 'Recordings and Relays' card. */
export function StreamRecordingsList({ streamId }: { streamId: string }) {
  return (
    <StreamJobsList
      streamId={streamId}
      feature={RECORDINGS}
      renderLine={(recording) => (
        <>
          <RecordingStateBadge state={recording.state} />
          <code className="text-truncate">{recording.fileName}</code>
          <span className="text-secondary">{recording.fileFormat}</span>
        </>
      )}
    />
  );
}
