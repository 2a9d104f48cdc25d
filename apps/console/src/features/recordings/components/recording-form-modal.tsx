import type { Recording } from '@streamcloud/contract';
import Modal from 'react-bootstrap/Modal';
import { useNotify } from '@/components/ui/notifications';
import { messageOr } from '@/lib/api-error';
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
  const notify = useNotify();

  const save = async (values: RecordingFormValues) => {
    try {
      const saved = recording
        ? await update.mutateAsync({ id: recording.id, body: toUpdateBody(values) })
        : await create.mutateAsync(toCreateBody(values));
      onSaved?.(saved);
      onHide();
    } catch (error) {
      notify(messageOr(error, recording ? RECORDING_ERRORS.update : createFailedText));
      throw error;
    }
  };

  return (
    <Modal show={show} onHide={onHide} size="lg" aria-labelledby="recording-form-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="recording-form-title">{recording ? 'Edit recording' : 'New recording'}</Modal.Title>
      </Modal.Header>
      {show && <RecordingForm streamId={streamId} recording={recording} onSave={save} onCancel={onHide} />}
    </Modal>
  );
}
