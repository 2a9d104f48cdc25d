import type { ReactNode } from 'react';
import Modal from 'react-bootstrap/Modal';
import { JobModal } from './job-modal';

export interface JobInfoModalProps {
  /** The job shown; null when closed. */
  id: string | null;
  onHide: () => void;
  titleId: string;
  title: string;
  /** The info view of the job `id`, mounted while the modal is open. */
  children: (id: string) => ReactNode;
}

/** A job's info view in a modal. */
export function JobInfoModal({ id, onHide, titleId, title, children }: JobInfoModalProps) {
  return (
    <JobModal show={id !== null} onHide={onHide} titleId={titleId} title={title}>
      <Modal.Body>{id && children(id)}</Modal.Body>
    </JobModal>
  );
}
