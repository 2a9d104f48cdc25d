import { describeSelector, recordingRoutes, STORAGE_TYPE_LABELS } from '@streamcloud/contract';
import { InfoRow, NONE } from '@/components/stream-jobs/info-row';
import { JobInfoList } from '@/components/stream-jobs/job-info-list';
import { JobInfoModal, type JobInfoModalOwnProps } from '@/components/stream-jobs/job-info-modal';
import { JobStream } from '@/components/stream-jobs/job-stream';
import { Loading } from '@/components/ui/loading';
import { recordingKeys } from '@/data/recordings/keys';
import { useRouteQuery } from '@/data/route-query';
import { useStorage } from '@/data/storages/get-storage';
import { useStream } from '@/data/streams/get-stream';
import { formatBytes, formatDuration } from '@/lib/format';
import { RECORDINGS } from '../utils/recordings-feature';
import { RecordingPlayback } from './recording-playback';
import { RecordingStateBadge } from './recording-state-badge';

/** Loads the recording with its stream id, then the stream, then its storage (section 2). */
function RecordingInfo({ id }: { id: string }) {
  const recording = useRouteQuery(recordingRoutes.get, recordingKeys.detail(id), { params: { id } });
  const stream = useStream(recording.data?.streamId);
  const storage = useStorage(stream.data ? recording.data?.storageId : undefined);

  if (recording.isPending) return <Loading />;
  if (recording.isError) return <p className="text-danger mb-0">The recording could not be loaded.</p>;
  const data = recording.data;
  return (
    <JobInfoList
      job={data}
      idLabel="Recording ID"
      badge={<RecordingStateBadge state={data.state} />}
      runningState={RECORDINGS.runningState}
      stream={<JobStream streamId={data.streamId} stream={stream} loadingText="Loading…" />}
      destination={
        <>
          <InfoRow label="File name">
            <code>{data.fileName}</code>
          </InfoRow>
          <InfoRow label="File format">{data.fileFormat}</InfoRow>
          <InfoRow label="Storage">
            {storage.isPending ? (
              'Loading…'
            ) : storage.isError ? (
              <code>{data.storageId}</code>
            ) : (
              <>
                {storage.data.name}
                <div className="small text-secondary">
                  {STORAGE_TYPE_LABELS[storage.data.type]}: {storage.data.bucket}
                  {storage.data.path ? `/${storage.data.path}` : ''}
                </div>
              </>
            )}
          </InfoRow>
          <InfoRow label="Object">
            {data.objectKey ? (
              <>
                <code>{data.objectKey}</code>
                {data.state === 'Completed' && (
                  <div className="small text-secondary">{formatBytes(data.length)} in the storage</div>
                )}
              </>
            ) : (
              NONE
            )}
          </InfoRow>
          <InfoRow label="Playback">
            <RecordingPlayback recording={data} />
          </InfoRow>
        </>
      }
      capture={
        <>
          {data.capture.source}
          <ul className="mb-0 ps-3">
            {data.capture.tracks.map((selector, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: selectors have no identity of their own
              <li key={index}>
                {selector.type}: {describeSelector(selector)}
              </li>
            ))}
          </ul>
        </>
      }
      figures={
        <>
          <InfoRow label="Duration">{formatDuration(data.duration)}</InfoRow>
          <InfoRow label="Length">{formatBytes(data.length)}</InfoRow>
        </>
      }
    />
  );
}

export function RecordingInfoModal(props: JobInfoModalOwnProps) {
  return (
    <JobInfoModal {...props} titleId="recording-info-title" title="Recording">
      {(shown) => <RecordingInfo id={shown} />}
    </JobInfoModal>
  );
}
