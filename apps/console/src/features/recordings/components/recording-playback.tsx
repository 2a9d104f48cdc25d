import { messageOr } from '@streamcloud/api-client';
import { RECORDING_PLAYBACK_MESSAGES, type Recording } from '@streamcloud/contract';
import { Loading } from '@/components/ui/loading';
import { useRecordingPlayback } from '@/data/recordings/playback';

/** A Completed recording's file: a player (MP4) and a Download link; until then, why it does not play yet. */
export function RecordingPlayback({ recording }: { recording: Pick<Recording, 'id' | 'state' | 'objectKey'> }) {
  if (recording.state !== 'Completed') {
    return <span className="text-secondary">{RECORDING_PLAYBACK_MESSAGES.notCompleted(recording.state)}</span>;
  }
  if (!recording.objectKey) return <span className="text-secondary">{RECORDING_PLAYBACK_MESSAGES.noObject}</span>;
  return <CompletedFile id={recording.id} />;
}

function CompletedFile({ id }: { id: string }) {
  const playback = useRecordingPlayback(id);
  if (playback.isPending) return <Loading />;
  if (playback.isError) {
    return (
      <p role="alert" className="text-danger mb-0">
        {messageOr(playback.error, 'The recording could not be opened')}
      </p>
    );
  }
  const { url, downloadUrl, playable, reason } = playback.data;
  return (
    <>
      {playable ? (
        // biome-ignore lint/a11y/useMediaCaption: a recording of a live stream has no caption track to offer
        <video className="w-100 mb-2 bg-black" src={url} controls preload="metadata" aria-label="Recording player" />
      ) : (
        <p className="text-secondary mb-2">{reason}</p>
      )}
      <a className="btn btn-sm btn-outline-secondary" href={downloadUrl} download>
        <i className="bi bi-download me-1" aria-hidden="true" />
        Download
      </a>
    </>
  );
}
