import type { ReactNode } from 'react';
import Modal from 'react-bootstrap/Modal';
import { ModalActions } from '@/components/ui/modal-actions';

export interface ConfirmDialogProps {
  show: boolean;
  message: ReactNode;
  title?: string;
  onConfirm: () => void;
  /** Cancel button, close button, Escape and a click on the backdrop. */
  onCancel: () => void;
}

/** A yes/no question answered with Cancel or Ok. */
export function ConfirmDialog({ show, message, title = 'Please confirm', onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Modal show={show} onHide={onCancel} centered aria-labelledby="confirm-dialog-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="confirm-dialog-title">{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{message}</Modal.Body>
      <ModalActions onCancel={onCancel} submitLabel="Ok" onSubmit={onConfirm} />
    </Modal>
  );
}
