import { ApiKeyCreate, type ApiKeyCreated, type ApiKeyScope, apiKeyRoutes } from '@streamcloud/contract';
import { CreateOnceDialog } from '@/components/credentials/create-once-dialog';
import { CopyField } from '@/components/ui/copy-field';
import { SelectField, TextField } from '@/components/ui/form-fields';
import { settingsKeys } from '@/data/account-settings/keys';
import { useRouteMutation } from '@/data/route-mutation';
import { contractResolver, namedFields } from '@/lib/forms';

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
  // Its answer is the only time the key itself is seen.
  const create = useRouteMutation(apiKeyRoutes.create, {
    toRequest: (body: ApiKeyCreate) => ({ body }),
    invalidates: () => [settingsKeys.apiKeys()],
  });
  return (
    <CreateOnceDialog
      show={show}
      onClose={onClose}
      id="create-api-key"
      title="Create API key"
      createdTitle="New API key"
      resolver={contractResolver(ApiKeyCreate, { toBody, fieldOfPath })}
      empty={EMPTY}
      fieldOfPath={fieldOfPath}
      create={(values: ApiKeyForm) => create.mutateAsync(toBody(values))}
      failedText="The API key could not be created."
      fields={(field) => (
        <>
          <TextField id="api-key-name" label="Name" autoComplete="off" {...field('name')} />
          <SelectField id="api-key-scope" label="Scope" {...field('scope')}>
            <option value="read">read (GET requests only, no secrets)</option>
            <option value="write">write</option>
          </SelectField>
          <SelectField id="api-key-expiry" label="Expires" {...field('expiry')}>
            {Object.entries(EXPIRIES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
        </>
      )}
      shown={(created: ApiKeyCreated) => (
        <>
          <p>
            Copy the key <strong>{created.name}</strong> now: it is shown only once.
          </p>
          <CopyField id="new-api-key" label="API key" value={created.key} />
        </>
      )}
    />
  );
}
