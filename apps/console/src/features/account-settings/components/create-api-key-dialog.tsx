import { messageOr } from '@streamcloud/api-client';
import { ApiKeyCreate, type ApiKeyCreated, type ApiKeyScope } from '@streamcloud/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import { CopyField } from '@/components/ui/copy-field';
import { FormFailure } from '@/components/ui/form-failure';
import { SelectField, TextField } from '@/components/ui/form-fields';
import { ModalActions } from '@/components/ui/modal-actions';
import { contractResolver, namedFields, showServerFieldErrors } from '@/lib/forms';
import { useCreateApiKey } from '../api/api-keys';

/** The expiries offered, in days ('never': no expiry). */
const EXPIRIES = { never: 'Never', '30': '30 days', '90': '90 days', '365': '1 year' } as const;
type Expiry = keyof typeof EXPIRIES;

interface ApiKeyForm {
  name: string;
  scope: ApiKeyScope;
  expiry: Expiry;
}

const EMPTY: ApiKeyForm = { name: '', scope: 'read', expiry: '90' };
const DAY_MS = 24 * 60 * 60 * 1000;

function toBody(values: ApiKeyForm): ApiKeyCreate {
  return {
    name: values.name,
    scope: values.scope,
    expiresAt: values.expiry === 'never' ? null : new Date(Date.now() + Number(values.expiry) * DAY_MS).toISOString(),
  };
}

const fieldOfPath = namedFields<ApiKeyForm>(['name', 'scope']);

/** Creates an API key, then shows it once with Copy. */
export function CreateApiKeyDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  const create = useCreateApiKey();
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ApiKeyForm>({ resolver: contractResolver(ApiKeyCreate, { toBody, fieldOfPath }), defaultValues: EMPTY });

  const close = () => {
    setCreated(null);
    setFailure(null);
    reset(EMPTY);
    onClose();
  };

  const onSubmit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      setCreated(await create.mutateAsync(toBody(values)));
    } catch (error) {
      showServerFieldErrors(error, setError, fieldOfPath);
      setFailure(messageOr(error, 'The API key could not be created.'));
    }
  });

  return (
    <Modal show={show} onHide={close} centered aria-labelledby="create-api-key-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="create-api-key-title">{created ? 'New API key' : 'Create API key'}</Modal.Title>
      </Modal.Header>
      {created ? (
        <>
          <Modal.Body>
            <p>
              Copy the key <strong>{created.name}</strong> now: it is shown only once.
            </p>
            <CopyField id="new-api-key" label="API key" value={created.key} />
          </Modal.Body>
          <Modal.Footer>
            <Button onClick={close}>Done</Button>
          </Modal.Footer>
        </>
      ) : (
        <form noValidate onSubmit={onSubmit} aria-label="Create API key">
          <Modal.Body>
            <FormFailure className="py-2">{failure}</FormFailure>
            <TextField
              id="api-key-name"
              label="Name"
              autoComplete="off"
              error={errors.name?.message}
              {...register('name')}
            />
            <SelectField id="api-key-scope" label="Scope" error={errors.scope?.message} {...register('scope')}>
              <option value="read">read (GET requests only, no secrets)</option>
              <option value="write">write</option>
            </SelectField>
            <SelectField id="api-key-expiry" label="Expires" {...register('expiry')}>
              {Object.entries(EXPIRIES).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </SelectField>
          </Modal.Body>
          <ModalActions onCancel={close} submitLabel="Create" submitDisabled={isSubmitting} />
        </form>
      )}
    </Modal>
  );
}
