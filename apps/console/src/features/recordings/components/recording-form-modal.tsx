import {
  type Recording,
  type RecordingCreateInput,
  type RecordingUpdateInput,
  recordingRoutes,
} from '@streamcloud/contract';
import { JobModal } from '@/components/stream-jobs/job-modal';
import { useSaveAndClose } from '@/components/stream-jobs/use-save-and-close';
import { recordingKeys } from '@/data/recordings/keys';
import { savesResource } from '@/data/resource-writes';
import { useRouteMutation } from '@/data/route-mutation';
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
  const create = useRouteMutation(recordingRoutes.create, {
    toRequest: (body: RecordingCreateInput) => ({ body }),
    ...savesResource(recordingKeys),
  });
  const update = useRouteMutation(recordingRoutes.update, {
    toRequest: ({ id, body }: { id: string; body: RecordingUpdateInput }) => ({ params: { id }, body }),
    ...savesResource(recordingKeys),
  });
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
