import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

export interface ModalActionsProps {
  onCancel: () => void;
  cancelLabel?: ReactNode;
  /** The primary button's text: 'Save', 'Create'... */
  submitLabel: ReactNode;
  submitDisabled?: boolean;
  /** Without it the primary button submits the modal's form. */
  onSubmit?: () => void;
}

/** A modal's footer: Cancel, then the primary action. */
export function ModalActions({
  onCancel,
  cancelLabel = 'Cancel',
  submitLabel,
  submitDisabled,
  onSubmit,
}: ModalActionsProps) {
  return (
    <Modal.Footer>
      <Button variant="secondary" onClick={onCancel}>
        {cancelLabel}
      </Button>
      <Button
        variant="primary"
        {...(onSubmit ? { onClick: onSubmit } : { type: 'submit' as const })}
        disabled={submitDisabled}
      >
        {submitLabel}
      </Button>
    </Modal.Footer>
  );
}
