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
import { useForm, useWatch } from 'react-hook-form';
import { Options, SecretField, SelectField, TextField, UrlField } from '@/components/ui/form-fields';
import { contractResolver, fieldsOf, namedFields, saveShowingFieldErrors } from '@/lib/forms';
import { NEW_STORAGE_VALUES, type StorageFormValues, toBody, toFormValues } from '../utils/storage-form-values';

export type StorageBody = StorageCreateInput & StorageUpdateInput;

const fieldOfPath = namedFields<StorageFormValues>([
  'name',
  'type',
  'accessKeyId',
  'secretAccessKey',
  'regionName',
  'bucket',
  'path',
  'endpoint',
]);

// The contract's schema (create or update) checks the body the inputs stand for; its messages show under them.
const createResolver = contractResolver(StorageCreate, { toBody, fieldOfPath });
const updateResolver = contractResolver(StorageUpdate, { toBody, fieldOfPath });

/** Where the objects go and whose key writes them: plain text inputs, in the spec's order. */
const WHERE_FIELDS = [
  { name: 'regionName', id: 'storage-region', label: 'Region name', placeholder: DEFAULT_S3_REGION },
  { name: 'bucket', id: 'storage-bucket', label: 'Bucket', placeholder: undefined },
  { name: 'path', id: 'storage-path', label: 'Path', placeholder: 'recordings/' },
  { name: 'accessKeyId', id: 'storage-access-key-id', label: 'Access key ID', placeholder: undefined },
] as const;

export interface StorageFormProps {
  /** The storage being edited; absent when creating one. */
  storage?: Storage;
  /** Saves; a rejection leaves the form as it is (the caller tells why). */
  onSave: (body: StorageBody) => Promise<void>;
}

/** The storage fields of the spec; the endpoint only for S3-compatible storage. */
export function StorageForm({ storage, onSave }: StorageFormProps) {
  const form = useForm<StorageFormValues>({
    resolver: storage ? updateResolver : createResolver,
    defaultValues: storage ? toFormValues(storage) : NEW_STORAGE_VALUES,
  });
  const { handleSubmit, reset, setError, control } = form;
  const { isSubmitting } = form.formState;
  const field = fieldsOf(form);
  const type = useWatch({ control, name: 'type' });
  const secretSet = storage?.secretAccessKeySet ?? false;

  const onSubmit = handleSubmit(
    saveShowingFieldErrors(
      async (values) => {
        await onSave(toBody(values));
        // Saved: the secret typed is stored, and never shown again.
        reset({ ...values, secretAccessKey: '' });
      },
      setError,
      fieldOfPath,
    ),
  );

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Storage">
      <Card className="mb-3">
        <Card.Body>
          <TextField id="storage-name" label="Name" autoComplete="off" {...field('name')} />
          {/* defaultValue too: the select must show the stored type before react-hook-form reads it back. */}
          <SelectField id="storage-type" label="Type" defaultValue={storage?.type ?? ''} {...field('type')}>
            <option value="">Choose a type</option>
            <Options values={STORAGE_TYPES} label={(value) => STORAGE_TYPE_LABELS[value]} />
          </SelectField>
          {type === 'AmazonS3Compatible' && (
            <UrlField
              id="storage-endpoint"
              label="Endpoint"
              placeholder="https://s3.example.com:9000"
              {...field('endpoint')}
            />
          )}
          {WHERE_FIELDS.map((input) => (
            <TextField
              key={input.name}
              id={input.id}
              label={input.label}
              placeholder={input.placeholder}
              autoComplete="off"
              {...field(input.name)}
            />
          ))}
          <SecretField
            id="storage-secret"
            label="Secret access key"
            isSet={secretSet}
            setPlaceholder="Set (hidden)"
            setHelp="A secret access key is set. Leave this blank to keep it, or type a new one to replace it."
            {...field('secretAccessKey')}
          />
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Saving…' : 'Save'}
          </Button>
        </Card.Body>
      </Card>
    </form>
  );
}
