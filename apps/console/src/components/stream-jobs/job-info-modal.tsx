import type { ReactNode } from 'react';
import Modal from 'react-bootstrap/Modal';
import { HeadedSection } from '@/components/ui/headed-section';
import { JobModal } from './job-modal';

/** What a feature's info modal takes from the jobs screen. */
export interface JobInfoModalOwnProps {
  /** The job shown; null when closed. */
  id: string | null;
  onHide: () => void;
  /** The webhooks sent for the job (the app fills it in from the webhooks feature). */
  callbacks?: JobCallbacks | undefined;
}

export interface JobInfoModalProps extends JobInfoModalOwnProps {
  titleId: string;
  title: string;
  /** The info view of the job `id`, mounted while the modal is open. */
  children: (id: string) => ReactNode;
}

/** The body of a job's Callbacks section. */
export type JobCallbacks = (jobId: string) => ReactNode;

/** A job's info view in a modal, and the callbacks sent for it. */
export function JobInfoModal({ id, onHide, titleId, title, children, callbacks }: JobInfoModalProps) {
  return (
    <JobModal show={id !== null} onHide={onHide} titleId={titleId} title={title}>
      <Modal.Body>
        {id && children(id)}
        {id && callbacks && (
          <HeadedSection id={`${titleId}-callbacks`} title="Callbacks" className="mt-3">
            {callbacks(id)}
          </HeadedSection>
        )}
      </Modal.Body>
    </JobModal>
  );
}
