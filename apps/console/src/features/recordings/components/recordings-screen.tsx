import type { Recording } from '@streamcloud/contract';
import type { JobCallbacks } from '@/components/stream-jobs/job-info-modal';
import type { JobSummary } from '@/components/stream-jobs/job-list-item';
import { StreamJobsScreen } from '@/components/stream-jobs/stream-jobs-screen';
import { useStorages } from '@/data/storages/get-storages';
import { formatBytes, formatDateTime, formatDuration } from '@/lib/format';
import { RECORDINGS } from '../utils/recordings-feature';
import { RecordingFormModal } from './recording-form-modal';
import { RecordingInfoModal } from './recording-info-modal';
import { RecordingStateBadge } from './recording-state-badge';

function summaryOf(recording: Recording, storageName: string | undefined): JobSummary {
  return {
    badge: <RecordingStateBadge state={recording.state} />,
    heading: (titleId) => (
      <>
        <code id={titleId} className="text-break">
          {recording.fileName}
        </code>
        <span className="text-secondary small">{recording.fileFormat}</span>
      </>
    ),
    facts: [
      ['Storage', storageName ?? recording.storageId],
      ['Duration', formatDuration(recording.duration)],
      ['Length', formatBytes(recording.length)],
      ['Uploaded', formatBytes(recording.uploaded)],
      ['Created', formatDateTime(recording.createdAt)],
    ],
  };
}

/** /streams/recording/{id}: a stream's recordings, autostarting first, re-polled every 5 seconds. */
export function RecordingsScreen({ callbacks }: { callbacks?: JobCallbacks } = {}) {
  const storages = useStorages();
  const storageNames = new Map((storages.data ?? []).map((storage) => [storage.id, storage.name]));
  return (
    <StreamJobsScreen
      feature={RECORDINGS}
      summary={(recording) => summaryOf(recording, storageNames.get(recording.storageId))}
      renderForm={({ job, ...modal }) => <RecordingFormModal {...modal} recording={job} />}
      renderInfo={(modal) => <RecordingInfoModal {...modal} callbacks={callbacks} />}
    />
  );
}
