import type { ReactNode } from 'react';
import Modal from 'react-bootstrap/Modal';

export interface JobModalProps {
  show: boolean;
  onHide: () => void;
  /** The title's id: the dialog is named by it. */
  titleId: string;
  title: string;
  children?: ReactNode;
}

/** A job's large modal with its title (closes by its close button, Escape or the backdrop). */
export function JobModal({ show, onHide, titleId, title, children }: JobModalProps) {
  return (
    <Modal show={show} onHide={onHide} size="lg" aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId}>{title}</Modal.Title>
      </Modal.Header>
      {children}
    </Modal>
  );
}
