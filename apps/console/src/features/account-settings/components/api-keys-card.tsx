import { type ApiKey, apiKeyRoutes } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';
import { CredentialsCard } from '@/components/credentials/credentials-card';
import { settingsKeys } from '@/data/account-settings/keys';
import { useRouteMutation } from '@/data/route-mutation';
import { useRouteQuery } from '@/data/route-query';
import { formatDateTime } from '@/lib/format';
import { CreateApiKeyDialog } from './create-api-key-dialog';

export const API_KEY_TEXTS = {
  revokeTitle: 'Revoke API key',
  loadingFailed: 'The API keys could not be loaded.',
  none: 'No API keys yet.',
  revokeQuestion: (name: string) =>
    `Revoke the API key "${name}"? Scripts using it are refused from their next request on.`,
  revoked: 'The API key was revoked.',
  revokeFailed: 'The API key could not be revoked.',
} as const;

const isExpired = (key: ApiKey) => key.expiresAt !== null && Date.parse(key.expiresAt) <= Date.now();

/** The account's API keys: create (shown once), list with last use, revoke. */
export function ApiKeysCard() {
  // The signed-in account's API keys, newest first.
  const keys = useRouteQuery(apiKeyRoutes.list, settingsKeys.apiKeys(), {});
  const revoke = useRouteMutation(apiKeyRoutes.revoke, {
    toRequest: (id: string) => ({ params: { id } }),
    invalidates: () => [settingsKeys.apiKeys()],
  });

  return (
    <CredentialsCard
      title="API keys"
      intro={
        <p className="text-secondary small">
          Scripts and CI call the API with a key as <code>Authorization: Bearer sck_…</code>. A key acts as your
          account:
          <em> read</em> keys may only read; <em>write</em> keys may change what your account may, but not create keys
          or change passwords.
        </p>
      }
      createLabel="Create API key"
      caption="API keys"
      texts={API_KEY_TEXTS}
      keys={keys}
      revoke={revoke}
      columns={['Name', 'Key', 'Scope', 'Created', 'Expires', 'Last used', 'Actions']}
      cells={(key: ApiKey, revokeButton) => (
        <>
          <td>{key.name}</td>
          <td>
            <code>{key.prefix}…</code>
          </td>
          <td>
            <Badge
              bg={key.scope === 'write' ? 'warning' : 'secondary'}
              text={key.scope === 'write' ? 'dark' : undefined}
            >
              {key.scope}
            </Badge>
          </td>
          <td>{formatDateTime(key.createdAt)}</td>
          <td>
            {key.expiresAt === null ? 'Never' : formatDateTime(key.expiresAt)}
            {isExpired(key) && (
              <Badge bg="danger" className="ms-2">
                Expired
              </Badge>
            )}
          </td>
          <td>
            {key.lastUsedAt === null
              ? 'Never'
              : `${formatDateTime(key.lastUsedAt)}${key.lastUsedAddress ? ` from ${key.lastUsedAddress}` : ''}`}
          </td>
          <td>{revokeButton(key)}</td>
        </>
      )}
      createDialog={(dialog) => <CreateApiKeyDialog {...dialog} />}
    />
  );
}
