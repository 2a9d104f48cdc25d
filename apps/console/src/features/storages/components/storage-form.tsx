import { zodResolver } from '@hookform/resolvers/zod';
import { isApiError } from '@streamcloud/api-client';
import {
  DEFAULT_S3_REGION,
  STORAGE_TYPE_LABELS,
  STORAGE_TYPES,
  type Storage,
  StorageCreate,
  type StorageCreateInput,
  StorageUpdate,
  type StorageUpdateInput,
} from '@streamcloud/contract';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { type FieldPath, type Resolver, type UseFormSetError, useForm, useWatch } from 'react-hook-form';
import { SelectField, TextField } from '@/components/ui/form-fields';
import { NEW_STORAGE_VALUES, type StorageFormValues, toBody, toFormValues } from './storage-form-values';

export type StorageBody = StorageCreateInput & StorageUpdateInput;

const FIELDS: readonly FieldPath<StorageFormValues>[] = [
  'name',
  'type',
  'accessKeyId',
  'secretAccessKey',
  'regionName',
  'bucket',
  'path',
  'endpoint',
];

/** The contract's schema (create or update) checks the body the inputs stand for; its messages show under them. */
function resolverFor(schema: typeof StorageCreate | typeof StorageUpdate): Resolver<StorageFormValues> {
  const validate = zodResolver(schema as typeof StorageCreate) as unknown as Resolver<StorageBody>;
  return async (values, context, options) => {
    const result = await validate(toBody(values), context, options as never);
    return Object.keys(result.errors).length > 0
      ? { values: {}, errors: result.errors as never }
      : { values, errors: {} };
  };
}

const createResolver = resolverFor(StorageCreate);
const updateResolver = resolverFor(StorageUpdate);

/** Puts the server's per-field messages (`body.endpoint`) under the matching inputs. */
function showFieldErrors(error: unknown, setError: UseFormSetError<StorageFormValues>) {
  if (!isApiError(error)) return;
  for (const item of error.errors ?? []) {
    const field = FIELDS.find((name) => `body.${name}` === item.path);
    if (field) setError(field, { message: item.message });
  }
}

export interface StorageFormProps {
  /** The storage being edited; absent when creating one. */
  storage?: Storage;
  /** Saves; a rejection leaves the form as it is (the caller tells why). */
  onSave: (body: StorageBody) => Promise<void>;
}

/** The storage fields of the spec; the endpoint only for S3-compatible storage. */
export function StorageForm({ storage, onSave }: StorageFormProps) {
  const {
    register,
    handleSubmit,
    reset,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<StorageFormValues>({
    resolver: storage ? updateResolver : createResolver,
    defaultValues: storage ? toFormValues(storage) : NEW_STORAGE_VALUES,
  });
  const type = useWatch({ control, name: 'type' });
  const secretSet = storage?.secretAccessKeySet ?? false;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await onSave(toBody(values));
      reset({ ...values, secretAccessKey: '' });
    } catch (error) {
      showFieldErrors(error, setError);
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Storage">
      <Card className="mb-3">
        <Card.Body>
          <TextField
            id="storage-name"
            label="Name"
            autoComplete="off"
            error={errors.name?.message}
            {...register('name')}
          />
          {/* defaultValue too: the select must show the stored type before react-hook-form reads it back. */}
          <SelectField
            id="storage-type"
            label="Type"
            defaultValue={storage?.type ?? ''}
            error={errors.type?.message}
            {...register('type')}
          >
            <option value="">Choose a type</option>
            {STORAGE_TYPES.map((value) => (
              <option key={value} value={value}>
                {STORAGE_TYPE_LABELS[value]}
              </option>
            ))}
          </SelectField>
          {type === 'AmazonS3Compatible' && (
            <TextField
              id="storage-endpoint"
              label="Endpoint"
              type="url"
              placeholder="https://s3.example.com:9000"
              autoComplete="off"
              error={errors.endpoint?.message}
              {...register('endpoint')}
            />
          )}
          <TextField
            id="storage-region"
            label="Region name"
            placeholder={DEFAULT_S3_REGION}
            autoComplete="off"
            error={errors.regionName?.message}
            {...register('regionName')}
          />
          <TextField
            id="storage-bucket"
            label="Bucket"
            autoComplete="off"
            error={errors.bucket?.message}
            {...register('bucket')}
          />
          <TextField
            id="storage-path"
            label="Path"
            placeholder="recordings/"
            autoComplete="off"
            error={errors.path?.message}
            {...register('path')}
          />
          <TextField
            id="storage-access-key-id"
            label="Access key ID"
            autoComplete="off"
            error={errors.accessKeyId?.message}
            {...register('accessKeyId')}
          />
          <Form.Group className="mb-3" controlId="storage-secret">
            <Form.Label>Secret access key</Form.Label>
            <Form.Control
              type="password"
              autoComplete="new-password"
              placeholder={secretSet ? 'Set (hidden)' : undefined}
              isInvalid={Boolean(errors.secretAccessKey)}
              aria-invalid={errors.secretAccessKey ? true : undefined}
              aria-describedby={
                [secretSet ? 'storage-secret-help' : '', errors.secretAccessKey ? 'storage-secret-error' : '']
                  .filter(Boolean)
                  .join(' ') || undefined
              }
              {...register('secretAccessKey')}
            />
            {secretSet && (
              <Form.Text id="storage-secret-help">
                A secret access key is set. Leave this blank to keep it, or type a new one to replace it.
              </Form.Text>
            )}
            {errors.secretAccessKey && (
              <Form.Control.Feedback type="invalid" id="storage-secret-error">
                {errors.secretAccessKey.message}
              </Form.Control.Feedback>
            )}
          </Form.Group>
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Saving…' : 'Save'}
          </Button>
        </Card.Body>
      </Card>
    </form>
  );
}
