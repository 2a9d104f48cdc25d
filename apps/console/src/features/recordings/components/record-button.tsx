import { useState } from 'react';
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
        <i className="bi bi-record-circle me-1" aria-hidden="true" />
        Record
      </button>
      <StartRecordingModal show={open} streamId={streamId} onHide={() => setOpen(false)} />
    </>
  );
}
