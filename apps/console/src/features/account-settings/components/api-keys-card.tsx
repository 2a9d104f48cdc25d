import { type ApiKey, apiKeyRoutes } from '@streamcloud/contract';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useConfirmedRevoke } from '@/components/credentials/use-confirmed-revoke';
import { Loading } from '@/components/ui/loading';
import { TitledCard } from '@/components/ui/titled-card';
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
  const { revokeButton, confirmDialog } = useConfirmedRevoke<ApiKey>(revoke, API_KEY_TEXTS);
  const [creating, setCreating] = useState(false);

  return (
    <TitledCard title="API keys">
      <p className="text-secondary small">
        Scripts and CI call the API with a key as <code>Authorization: Bearer sck_…</code>. A key acts as your account:
        <em> read</em> keys may only read; <em>write</em> keys may change what your account may, but not create keys or
        change passwords.
      </p>
      <Button className="mb-3" onClick={() => setCreating(true)}>
        Create API key
      </Button>
      {keys.isPending ? (
        <Loading />
      ) : keys.isError ? (
        <p className="text-danger mb-0">{API_KEY_TEXTS.loadingFailed}</p>
      ) : keys.data.length === 0 ? (
        <p className="mb-0">{API_KEY_TEXTS.none}</p>
      ) : (
        <Table responsive hover className="align-middle mb-0">
          <caption className="visually-hidden">API keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Scope</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <tr key={key.id}>
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
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <CreateApiKeyDialog show={creating} onClose={() => setCreating(false)} />
      {confirmDialog}
    </TitledCard>
  );
}
