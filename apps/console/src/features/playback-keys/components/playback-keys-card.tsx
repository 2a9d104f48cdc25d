import { type PlaybackKey, playbackKeyRoutes } from '@streamcloud/contract';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useConfirmedRevoke } from '@/components/credentials/use-confirmed-revoke';
import { Loading } from '@/components/ui/loading';
import { TitledCard } from '@/components/ui/titled-card';
import { playbackKeyKeys } from '@/data/playback-keys/keys';
import { useRouteMutation } from '@/data/route-mutation';
import { useRouteQuery } from '@/data/route-query';
import { formatDateTime } from '@/lib/format';
import { PLAYBACK_KEY_TEXTS } from '../utils/messages';
import { CreatePlaybackKeyDialog } from './create-playback-key-dialog';

/** The account's playback signing keys: create (private key or secret shown once), list, revoke. */
export function PlaybackKeysCard() {
  // The signed-in account's playback signing keys, active first.
  const keys = useRouteQuery(playbackKeyRoutes.list, playbackKeyKeys.list(), {});
  const revoke = useRouteMutation(playbackKeyRoutes.revoke, {
    toRequest: (id: string) => ({ params: { id } }),
    invalidates: () => [playbackKeyKeys.list()],
  });
  const { revokeButton, confirmDialog } = useConfirmedRevoke<PlaybackKey>(revoke, PLAYBACK_KEY_TEXTS);
  const [creating, setCreating] = useState(false);

  return (
    <TitledCard title="Signing keys">
      <p className="text-secondary small">{PLAYBACK_KEY_TEXTS.intro}</p>
      <Button className="mb-3" onClick={() => setCreating(true)}>
        Create signing key
      </Button>
      {keys.isPending ? (
        <Loading />
      ) : keys.isError ? (
        <p className="text-danger mb-0">{PLAYBACK_KEY_TEXTS.loadingFailed}</p>
      ) : keys.data.length === 0 ? (
        <p className="mb-0">{PLAYBACK_KEY_TEXTS.none}</p>
      ) : (
        <Table responsive hover className="align-middle mb-0">
          <caption className="visually-hidden">Playback signing keys</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key id (kid)</th>
              <th scope="col">Algorithm</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => (
              <tr key={key.id}>
                <td>{key.name}</td>
                <td>
                  <code>{key.kid}</code>
                </td>
                <td>{key.algorithm}</td>
                <td>{formatDateTime(key.createdAt)}</td>
                <td>
                  {key.revokedAt === null ? (
                    <Badge bg="success">Active</Badge>
                  ) : (
                    <Badge bg="secondary">Revoked {formatDateTime(key.revokedAt)}</Badge>
                  )}
                </td>
                <td>{key.revokedAt === null && revokeButton(key)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <CreatePlaybackKeyDialog show={creating} onClose={() => setCreating(false)} />
      {confirmDialog}
    </TitledCard>
  );
}
