import { messageOr } from '@streamcloud/api-client';
import { type ReactNode, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { DefaultValues, FieldValues, Resolver } from 'react-hook-form';
import { FormFailure } from '@/components/ui/form-failure';
import { ModalActions } from '@/components/ui/modal-actions';
import { type FieldBinder, type FieldOfPath, useSubmitForm } from '@/lib/forms';

export interface CreateOnceDialogProps<Form extends FieldValues, Submitted, Created> {
  show: boolean;
  onClose: () => void;
  /** Prefix of the title's id. */
  id: string;
  /** The form's title (also its accessible name), then the title once created. */
  title: string;
  createdTitle: string;
  size?: 'lg';
  /** The form's rules (`contractResolver`). */
  resolver: Resolver<Form, unknown, Submitted>;
  /** What the form starts from, and goes back to when the dialog closes. */
  empty: Form;
  fieldOfPath: FieldOfPath<Form>;
  /** Creates it; answers what is shown once. */
  create: (submitted: Submitted) => Promise<Created>;
  /** Shown when creating fails without a message of the server's. */
  failedText: string;
  /** The form's inputs, bound by `field('name')`. */
  fields: (field: FieldBinder<Form>) => ReactNode;
  /** What the new credential's owner keeps: shown this once. */
  shown: (created: Created) => ReactNode;
  /** The submit button's label ('Create' unless told). */
  submitLabel?: string;
}

/**
 * A credential's creation (API key, playback signing key) or replacement (a rotated token): its form, then what it made, shown once, until the
 * dialog closes (which forgets it and empties the form).
 */
export function CreateOnceDialog<Form extends FieldValues, Submitted, Created>(
  props: CreateOnceDialogProps<Form, Submitted, Created>,
) {
  const { empty, fieldOfPath } = props;
  const [created, setCreated] = useState<Created | null>(null);
  const { form, field, onSubmit, failure, clearFailure } = useSubmitForm<Form, Submitted>(
    { resolver: props.resolver, defaultValues: empty as DefaultValues<Form> },
    {
      save: async (submitted) => setCreated(await props.create(submitted)),
      failureOf: (error) => messageOr(error, props.failedText),
      fieldOfPath,
    },
  );

  const close = () => {
    setCreated(null);
    clearFailure();
    form.reset(empty);
    props.onClose();
  };

  const titleId = `${props.id}-title`;
  return (
    <Modal show={props.show} onHide={close} centered size={props.size} aria-labelledby={titleId}>
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id={titleId}>{created ? props.createdTitle : props.title}</Modal.Title>
      </Modal.Header>
      {created ? (
        <>
          <Modal.Body>{props.shown(created)}</Modal.Body>
          <Modal.Footer>
            <Button onClick={close}>Done</Button>
          </Modal.Footer>
        </>
      ) : (
        <form noValidate onSubmit={onSubmit} aria-label={props.title}>
          <Modal.Body>
            <FormFailure className="py-2">{failure}</FormFailure>
            {props.fields(field)}
          </Modal.Body>
          <ModalActions
            onCancel={close}
            submitLabel={props.submitLabel ?? 'Create'}
            submitDisabled={form.formState.isSubmitting}
          />
        </form>
      )}
    </Modal>
  );
}
