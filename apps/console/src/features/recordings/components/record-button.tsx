import recordCircleIcon from 'bootstrap-icons/icons/record-circle.svg?raw';
import { useState } from 'react';
import { Icon } from '@/components/ui/icon';
import { RECORDING_ERRORS } from '../utils/messages';
import { RecordingFormModal } from './recording-form-modal';

export interface StartRecordingModalProps {
  show: boolean;
  streamId: string;
  onHide: () => void;
}

/** The recording form opened from the stream dashboard; a failure reads 'Something wrong with recording start'. */
export function StartRecordingModal({ show, streamId, onHide }: StartRecordingModalProps) {
  return (
    <RecordingFormModal show={show} streamId={streamId} onHide={onHide} createFailedText={RECORDING_ERRORS.start} />
  );
}

/**
 * The stream dashboard's recording button with its form. The dashboard decides `enabled` (section 4:
 * only in Ingestion, never in Error).
 */
export function RecordButton({ streamId, enabled }: { streamId: string; enabled: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="btn btn-danger btn-sm" disabled={!enabled} onClick={() => setOpen(true)}>
        <Icon svg={recordCircleIcon} className="me-1" />
        Record
      </button>
      <StartRecordingModal show={open} streamId={streamId} onHide={() => setOpen(false)} />
    </>
  );
}
