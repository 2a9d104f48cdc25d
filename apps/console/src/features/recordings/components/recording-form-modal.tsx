import type { Recording } from '@streamcloud/contract';
import { JobModal } from '@/components/stream-jobs/job-modal';
import { useSaveAndClose } from '@/components/stream-jobs/use-save-and-close';
import { useCreateRecording } from '../api/create-recording';
import { useUpdateRecording } from '../api/update-recording';
import { RECORDING_ERRORS } from '../utils/messages';
import { type RecordingFormValues, toCreateBody, toUpdateBody } from '../utils/recording-form-values';
import { RecordingForm } from './recording-form';

export interface RecordingFormModalProps {
  show: boolean;
  streamId: string;
  /** Edit this recording; absent to create one. */
  recording?: Recording;
  onHide: () => void;
  onSaved?: (recording: Recording) => void;
  /** The text when creating fails without a server message (the dashboard's button has its own). */
  createFailedText?: string;
}

/** The recording create/edit form in a modal (closes by its close button, Escape or the backdrop). */
export function RecordingFormModal({
  show,
  streamId,
  recording,
  onHide,
  onSaved,
  createFailedText = RECORDING_ERRORS.creation,
}: RecordingFormModalProps) {
  const create = useCreateRecording();
  const update = useUpdateRecording();
  const save = useSaveAndClose(
    (values: RecordingFormValues) =>
      recording
        ? update.mutateAsync({ id: recording.id, body: toUpdateBody(values) })
        : create.mutateAsync(toCreateBody(values)),
    recording ? RECORDING_ERRORS.update : createFailedText,
    (saved) => {
      onSaved?.(saved);
      onHide();
    },
  );

  return (
    <JobModal
      show={show}
      onHide={onHide}
      titleId="recording-form-title"
      title={recording ? 'Edit recording' : 'New recording'}
    >
      {show && <RecordingForm streamId={streamId} job={recording} onSave={save} onCancel={onHide} />}
    </JobModal>
  );
}
