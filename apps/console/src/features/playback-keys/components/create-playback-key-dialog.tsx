import {
  PlaybackKeyAlgorithm,
  PlaybackKeyCreate,
  type PlaybackKeyCreated,
  type PlaybackKeyCreateInput,
  playbackKeyRoutes,
} from '@streamcloud/contract';
import { CreateOnceDialog } from '@/components/credentials/create-once-dialog';
import { CopyField } from '@/components/ui/copy-field';
import { Options, SelectField, TextField } from '@/components/ui/form-fields';
import { playbackKeyKeys } from '@/data/playback-keys/keys';
import { useRouteMutation } from '@/data/route-mutation';
import { contractResolver, namedFields } from '@/lib/forms';
import { ALGORITHM_LABELS, PLAYBACK_KEY_TEXTS } from '../utils/messages';
import { SecretBlock } from './secret-block';

const EMPTY: PlaybackKeyCreateInput = { name: '', algorithm: 'ES256' };
const fieldOfPath = namedFields<PlaybackKeyCreateInput>(['name', 'algorithm']);

/** What the new key's owner keeps, shown once. */
function CreatedKey({ created }: { created: PlaybackKeyCreated }) {
  const file = created.name.replace(/[^A-Za-z0-9_-]+/g, '-') || 'playback-key';
  return (
    <>
      <p>
        Key <strong>{created.name}</strong> ({created.algorithm}): put its id in the header of every token it signs (
        <code>kid</code>).
      </p>
      <CopyField id="new-playback-kid" label="Key id (kid)" value={created.kid} />
      {created.secret ? (
        <>
          <p className="text-danger">{PLAYBACK_KEY_TEXTS.secretShownOnce}</p>
          <SecretBlock
            id="new-playback-secret"
            label="Secret (base64url)"
            value={created.secret}
            fileName={`${file}.secret.txt`}
          />
        </>
      ) : (
        <>
          <p className="text-danger">{PLAYBACK_KEY_TEXTS.shownOnce}</p>
          <SecretBlock
            id="new-playback-private-pem"
            label="Private key (PKCS#8 PEM)"
            value={created.privateKeyPem ?? ''}
            fileName={`${file}.private.pem`}
          />
          <SecretBlock
            id="new-playback-private-jwk"
            label="Private key (JWK)"
            value={JSON.stringify(created.privateJwk, null, 2)}
            fileName={`${file}.private.jwk.json`}
          />
        </>
      )}
    </>
  );
}

/** Creates a playback signing key, then shows its private key or secret once with Copy and Download. */
export function CreatePlaybackKeyDialog({ show, onClose }: { show: boolean; onClose: () => void }) {
  // Its answer is the only time its private key or secret is seen.
  const create = useRouteMutation(playbackKeyRoutes.create, {
    toRequest: (body: PlaybackKeyCreate) => ({ body }),
    invalidates: () => [playbackKeyKeys.list()],
  });
  return (
    <CreateOnceDialog
      show={show}
      onClose={onClose}
      id="create-playback-key"
      title="Create playback signing key"
      createdTitle="New playback signing key"
      size="lg"
      resolver={contractResolver(PlaybackKeyCreate)}
      empty={EMPTY}
      fieldOfPath={fieldOfPath}
      create={(body: PlaybackKeyCreate) => create.mutateAsync(body)}
      failedText={PLAYBACK_KEY_TEXTS.createFailed}
      fields={(field) => (
        <>
          <TextField id="playback-key-name" label="Name" autoComplete="off" {...field('name')} />
          <SelectField id="playback-key-algorithm" label="Algorithm" {...field('algorithm')}>
            <Options values={PlaybackKeyAlgorithm.options} label={(algorithm) => ALGORITHM_LABELS[algorithm]} />
          </SelectField>
        </>
      )}
      shown={(created: PlaybackKeyCreated) => <CreatedKey created={created} />}
    />
  );
}
