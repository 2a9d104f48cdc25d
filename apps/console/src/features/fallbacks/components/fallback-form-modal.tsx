import {
  FALLBACK_LABEL_MAX,
  FALLBACK_SOURCES,
  FALLBACK_TYPES,
  type Fallback,
  type FallbackInputDraft,
  type FallbackResourceType,
  type FallbackType,
  SLATE_IMAGE_LIMITS,
} from '@streamcloud/contract';
import type { ChangeEvent } from 'react';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useForm, useWatch } from 'react-hook-form';
import { Options, SelectField, TextField } from '@/components/ui/form-fields';
import { ModalActions } from '@/components/ui/modal-actions';
import { useNotify } from '@/components/ui/notifications';
import { fieldsOf } from '@/lib/forms';
import { useImageFileInput } from '@/lib/use-image-file-input';
import {
  defaultSource,
  type FallbackFormValues,
  fallbackResolver,
  NEW_FALLBACK_VALUES,
  toBody,
  toFormValues,
} from '../utils/fallback-form-values';

const SOURCE_LABELS: Record<FallbackResourceType, string> = {
  DATA_URI: 'Uploaded image',
  URL: 'URL',
  STORAGE: 'Storage object',
};

export interface FallbackFormProps {
  streamId: string;
  /** The fallback being edited; absent when adding one. */
  fallback?: Fallback;
  /** Saves; a rejection keeps the form open (the caller tells why). */
  onSave: (body: FallbackInputDraft) => Promise<void>;
  onCancel: () => void;
}

/** The input of a fallback's data given as text: a URL (a stream's or an image's), or an object of a storage. */
function textDataInput(source: 'URL' | 'STORAGE', type: FallbackType) {
  if (source === 'STORAGE') {
    return { id: 'fallback-storage', label: 'Storage object', placeholder: '<storage id>/<object key>' };
  }
  const placeholder = type === 'Input' ? 'rtmp://backup.example.com/live/key' : 'https://cdn.example.com/slate.png';
  return { id: 'fallback-url', label: 'URL', type: 'url', placeholder };
}

function FallbackForm({ streamId, fallback, onSave, onCancel }: FallbackFormProps) {
  const notify = useNotify();
  const form = useForm<FallbackFormValues>({
    resolver: fallbackResolver(streamId),
    defaultValues: fallback ? toFormValues(fallback) : NEW_FALLBACK_VALUES,
    mode: 'onChange',
  });
  const { handleSubmit, control, setValue, getValues } = form;
  const { errors, isValid, isSubmitting } = form.formState;
  const field = fieldsOf(form);
  const type = useWatch({ control, name: 'type' });
  const source = useWatch({ control, name: 'source' });
  const data = useWatch({ control, name: 'data' });
  const label = useWatch({ control, name: 'label' });
  const sources = type === '' ? [] : FALLBACK_SOURCES[type];

  const typeField = field('type', {
    onChange: (event: ChangeEvent<HTMLSelectElement>) => {
      const next = event.target.value as FallbackType | '';
      if (next === '' || !FALLBACK_SOURCES[next].includes(source as FallbackResourceType)) {
        setValue('source', defaultSource(next));
        setValue('data', '', { shouldValidate: true });
      }
    },
  });
  const sourceField = field('source', {
    onChange: () => setValue('data', '', { shouldValidate: true }),
  });

  const slateFile = useImageFileInput(
    SLATE_IMAGE_LIMITS,
    (dataUri) => setValue('data', dataUri, { shouldValidate: true, shouldDirty: true }),
    notify,
  );

  const submit = handleSubmit(async (values) => {
    try {
      await onSave(toBody(streamId, values));
    } catch {
      // The caller has said why; the form stays as it is.
    }
  });

  return (
    <form noValidate onSubmit={submit} aria-label="Fallback">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="fallback-form-title">{fallback ? 'Edit fallback' : 'Add fallback'}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <SelectField id="fallback-type" label="Type" defaultValue={getValues('type')} {...typeField}>
          <option value="">Choose a type</option>
          <Options values={FALLBACK_TYPES} />
        </SelectField>
        <TextField
          id="fallback-label"
          label="Label"
          autoComplete="off"
          aria-describedby="fallback-label-count"
          {...field('label')}
        />
        <Form.Text id="fallback-label-count" className="d-block mt-n2 mb-3">
          {label.length}/{FALLBACK_LABEL_MAX}
        </Form.Text>
        {type !== '' && (
          <SelectField
            key={type}
            id="fallback-source"
            label="Source"
            defaultValue={getValues('source')}
            {...sourceField}
          >
            <Options values={sources} label={(value) => SOURCE_LABELS[value]} />
          </SelectField>
        )}
        {type !== '' && source === 'DATA_URI' && (
          <Form.Group className="mb-3" controlId="fallback-slate-file">
            <Form.Label>Slate image</Form.Label>
            <Form.Control
              type="file"
              accept="image/png,image/jpeg"
              disabled={slateFile.reading}
              isInvalid={Boolean(errors.data)}
              aria-describedby="fallback-slate-help"
              onChange={slateFile.onChange}
            />
            <Form.Text id="fallback-slate-help">PNG or JPEG, at most 5 MB and 1920x1080 px.</Form.Text>
            {errors.data && <Form.Control.Feedback type="invalid">{errors.data.message}</Form.Control.Feedback>}
            {data.startsWith('data:') && (
              <img src={data} alt="Slate preview" className="img-thumbnail d-block mt-2" style={{ maxWidth: 240 }} />
            )}
          </Form.Group>
        )}
        {type !== '' && (source === 'URL' || source === 'STORAGE') && (
          <TextField key={source} autoComplete="off" {...textDataInput(source, type)} {...field('data')} />
        )}
      </Modal.Body>
      <ModalActions
        onCancel={onCancel}
        submitLabel={isSubmitting ? 'Saving…' : 'Save'}
        submitDisabled={!isValid || isSubmitting || slateFile.reading}
      />
    </form>
  );
}

/** Adds or edits a fallback; closes by its close button, Escape or the backdrop. */
export function FallbackFormModal({ show, ...props }: FallbackFormProps & { show: boolean }) {
  return (
    <Modal show={show} onHide={props.onCancel} centered aria-labelledby="fallback-form-title">
      {show && <FallbackForm {...props} />}
    </Modal>
  );
}
