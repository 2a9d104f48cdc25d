import { messageOr } from '@streamcloud/api-client';
import {
  PlaybackKeyAlgorithm,
  PlaybackKeyCreate,
  type PlaybackKeyCreated,
  type PlaybackKeyCreateInput,
} from '@streamcloud/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import { CopyField } from '@/components/ui/copy-field';
import { FormFailure } from '@/components/ui/form-failure';
import { Options, SelectField, TextField } from '@/components/ui/form-fields';
import { ModalActions } from '@/components/ui/modal-actions';
import { contractResolver, namedFields, showServerFieldErrors } from '@/lib/forms';
import { useCreatePlaybackKey } from '../api/playback-keys';
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
  const create = useCreatePlaybackKey();
  const [created, setCreated] = useState<PlaybackKeyCreated | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PlaybackKeyCreateInput, unknown, PlaybackKeyCreate>({
    resolver: contractResolver(PlaybackKeyCreate),
    defaultValues: EMPTY,
  });

  const close = () => {
    setCreated(null);
    setFailure(null);
    reset(EMPTY);
    onClose();
  };

  const onSubmit = handleSubmit(async (body) => {
    setFailure(null);
    try {
      setCreated(await create.mutateAsync(body));
    } catch (error) {
      showServerFieldErrors(error, setError, fieldOfPath);
      setFailure(messageOr(error, PLAYBACK_KEY_TEXTS.createFailed));
    }
  });

  return (
    <Modal show={show} onHide={close} centered size="lg" aria-labelledby="create-playback-key-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="create-playback-key-title">
          {created ? 'New playback signing key' : 'Create playback signing key'}
        </Modal.Title>
      </Modal.Header>
      {created ? (
        <>
          <Modal.Body>
            <CreatedKey created={created} />
          </Modal.Body>
          <Modal.Footer>
            <Button onClick={close}>Done</Button>
          </Modal.Footer>
        </>
      ) : (
        <form noValidate onSubmit={onSubmit} aria-label="Create playback signing key">
          <Modal.Body>
            <FormFailure className="py-2">{failure}</FormFailure>
            <TextField
              id="playback-key-name"
              label="Name"
              autoComplete="off"
              error={errors.name?.message}
              {...register('name')}
            />
            <SelectField
              id="playback-key-algorithm"
              label="Algorithm"
              error={errors.algorithm?.message}
              {...register('algorithm')}
            >
              <Options values={PlaybackKeyAlgorithm.options} label={(algorithm) => ALGORITHM_LABELS[algorithm]} />
            </SelectField>
          </Modal.Body>
          <ModalActions onCancel={close} submitLabel="Create" submitDisabled={isSubmitting} />
        </form>
      )}
    </Modal>
  );
}
