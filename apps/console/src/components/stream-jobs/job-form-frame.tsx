import type { FormEventHandler, ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

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
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={!valid || submitting}>
          {submitting ? 'Saving…' : editing ? 'Update' : 'Create'}
        </Button>
      </Modal.Footer>
    </form>
  );
}
