import { type PlaybackKey, playbackKeyRoutes } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';
import { CredentialsCard } from '@/components/credentials/credentials-card';
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

  return (
    <CredentialsCard
      title="Signing keys"
      intro={<p className="text-secondary small">{PLAYBACK_KEY_TEXTS.intro}</p>}
      createLabel="Create signing key"
      caption="Playback signing keys"
      texts={PLAYBACK_KEY_TEXTS}
      keys={keys}
      revoke={revoke}
      columns={['Name', 'Key id (kid)', 'Algorithm', 'Created', 'Status', 'Actions']}
      cells={(key: PlaybackKey, revokeButton) => (
        <>
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
        </>
      )}
      createDialog={(dialog) => <CreatePlaybackKeyDialog {...dialog} />}
    />
  );
}
