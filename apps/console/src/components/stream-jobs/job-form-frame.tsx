import type { FormEventHandler, ReactNode } from 'react';
import Modal from 'react-bootstrap/Modal';
import { ModalActions } from '@/components/ui/modal-actions';

export interface JobFormFrameProps {
  /** The form's accessible name: 'Recording'. */
  label: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  onCancel: () => void;
  editing: boolean;
  valid: boolean;
  submitting: boolean;
  children: ReactNode;
}

/** A job's create/edit form as a modal's body, with Cancel and Create (or Update) below. */
export function JobFormFrame({ label, onSubmit, onCancel, editing, valid, submitting, children }: JobFormFrameProps) {
  return (
    <form noValidate onSubmit={onSubmit} aria-label={label}>
      <Modal.Body>{children}</Modal.Body>
      <ModalActions
        onCancel={onCancel}
        submitLabel={submitting ? 'Saving…' : editing ? 'Update' : 'Create'}
        submitDisabled={!valid || submitting}
      />
    </form>
  );
}
