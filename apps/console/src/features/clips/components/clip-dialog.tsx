import { ApiError, messageOr } from '@streamcloud/api-client';
import { type ClipCreateInput, clipRoutes } from '@streamcloud/contract';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { SelectField, TextField } from '@/components/ui/form-fields';
import { ModalActions } from '@/components/ui/modal-actions';
import { useNotify } from '@/components/ui/notifications';
import { clipKeys } from '@/data/clips/keys';
import { useRouteMutation } from '@/data/route-mutation';
import { useStorages } from '@/data/storages/get-storages';
import { type ClipValues, emptyClipValues, fieldErrors, toBody } from '../utils/clip-values';
import { CLIP_TEXTS } from '../utils/messages';

export interface ClipDialogProps {
  show: boolean;
  streamId: string;
  /** The program date-time of the frame the stream's player shows now (null: it has none, e.g. WebRTC). */
  position: () => Date | null;
  onHide: () => void;
}

/** The server's field errors (`body.from`) by field (`from`). */
function serverFieldErrors(error: unknown): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!(error instanceof ApiError)) return errors;
  for (const { path, message } of error.errors ?? []) errors[path.replace(/^body\./, '')] ??= message;
  return errors;
}

/**
 * Marks in and out on the stream's player and asks for the clip: the marks are the player's program
 * date-times (its EXT-X-PROGRAM-DATE-TIME), editable as text; the contract's rules are checked before sending.
 */
export function ClipDialog({ show, streamId, position, onHide }: ClipDialogProps) {
  const [values, setValues] = useState<ClipValues>(emptyClipValues);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const storages = useStorages({ enabled: show });
  const create = useRouteMutation(clipRoutes.create, {
    toRequest: (body: ClipCreateInput) => ({ body }),
    invalidates: (clip) => [clipKeys.stream(clip.streamId)],
  });
  const notify = useNotify();

  const set = (field: keyof ClipValues, value: string) => setValues((before) => ({ ...before, [field]: value }));
  const mark = (field: 'from' | 'to') => {
    const at = position();
    if (!at) return setProblem(CLIP_TEXTS.noPosition);
    setProblem(null);
    set(field, at.toISOString());
  };
  const close = () => {
    setValues(emptyClipValues);
    setErrors({});
    setProblem(null);
    onHide();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = toBody(streamId, values);
    const refused = fieldErrors(body);
    setErrors(refused);
    if (Object.keys(refused).length > 0) return;
    create.mutate(body, {
      onSuccess: () => {
        notify(CLIP_TEXTS.created, 'success');
        close();
      },
      onError: (error) => {
        const fields = serverFieldErrors(error);
        setErrors(fields);
        setProblem(Object.keys(fields).length > 0 ? null : messageOr(error, CLIP_TEXTS.createFailed));
      },
    });
  };

  /** A kit field's value, change and error, bound to one of the dialog's values. */
  const bound = (name: 'caption' | 'storageId') => ({
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => set(name, event.target.value),
    error: errors[name],
  });

  const field = (name: 'from' | 'to', label: string, markLabel: string) => (
    <Form.Group className="mb-3" controlId={`clip-${name}`}>
      <Form.Label>{label}</Form.Label>
      <div className="d-flex gap-2">
        <Form.Control
          value={values[name]}
          onChange={(event) => set(name, event.target.value)}
          isInvalid={Boolean(errors[name])}
          aria-invalid={Boolean(errors[name])}
          aria-describedby={errors[name] ? `clip-${name}-error` : undefined}
          placeholder="2026-01-01T10:00:00.000Z"
        />
        <Button variant="outline-secondary" onClick={() => mark(name)}>
          {markLabel}
        </Button>
      </div>
      {errors[name] && (
        <Form.Text id={`clip-${name}-error`} className="text-danger">
          {errors[name]}
        </Form.Text>
      )}
    </Form.Group>
  );

  return (
    <Modal show={show} onHide={close} aria-labelledby="clip-dialog-title">
      <Form noValidate onSubmit={submit}>
        <Modal.Header closeButton>
          <Modal.Title id="clip-dialog-title">{CLIP_TEXTS.dialogTitle}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          <p className="small text-secondary">{CLIP_TEXTS.keyframeNote}</p>
          {field('from', CLIP_TEXTS.inLabel, CLIP_TEXTS.markIn)}
          {field('to', CLIP_TEXTS.outLabel, CLIP_TEXTS.markOut)}
          <TextField id="clip-caption" label={CLIP_TEXTS.captionLabel} {...bound('caption')} />
          <SelectField id="clip-storage" label={CLIP_TEXTS.storageLabel} {...bound('storageId')}>
            <option value="">{CLIP_TEXTS.storageDefault}</option>
            {(storages.data ?? []).map((storage) => (
              <option key={storage.id} value={storage.id}>
                {storage.name}
              </option>
            ))}
          </SelectField>
          {problem && (
            <p role="alert" className="text-danger small mb-0">
              {problem}
            </p>
          )}
        </Modal.Body>
        <ModalActions onCancel={close} submitLabel={CLIP_TEXTS.createButton} submitDisabled={create.isPending} />
      </Form>
    </Modal>
  );
}

/** The preview player's "Create clip" button and its dialog. */
export function ClipButton({ streamId, position }: { streamId: string; position: () => Date | null }) {
  const [show, setShow] = useState(false);
  return (
    <>
      <Button size="sm" variant="outline-primary" onClick={() => setShow(true)}>
        {CLIP_TEXTS.createButton}
      </Button>
      <ClipDialog show={show} streamId={streamId} position={position} onHide={() => setShow(false)} />
    </>
  );
}
