import { messageOr } from '@streamcloud/api-client';
import { PlaybackTokenRevoke, playbackKeyRoutes } from '@streamcloud/contract';
import Button from 'react-bootstrap/Button';
import { useForm } from 'react-hook-form';
import { TextField } from '@/components/ui/form-fields';
import { useNotify } from '@/components/ui/notifications';
import { TitledCard } from '@/components/ui/titled-card';
import { useRouteMutation } from '@/data/route-mutation';
import { contractResolver, fieldsOf, namedFields, showServerFieldErrors } from '@/lib/forms';
import { PLAYBACK_KEY_TEXTS } from '../utils/messages';

const fieldOfPath = namedFields<PlaybackTokenRevoke>(['jti']);

/** Withdraws one sold ticket: every token of the account's keys carrying the jti is refused. */
export function RevokeTokenCard() {
  // Revokes one token by its jti.
  const revoke = useRouteMutation(playbackKeyRoutes.revokeToken, {
    toRequest: (body: PlaybackTokenRevoke) => ({ body }),
  });
  const notify = useNotify();
  const form = useForm<PlaybackTokenRevoke>({
    resolver: contractResolver(PlaybackTokenRevoke),
    defaultValues: { jti: '' },
  });
  const { handleSubmit, reset, setError } = form;
  const field = fieldsOf(form);

  const onSubmit = handleSubmit(async (body) => {
    try {
      await revoke.mutateAsync(body);
      notify(PLAYBACK_KEY_TEXTS.tokenRevoked(body.jti), 'success');
      reset({ jti: '' });
    } catch (error) {
      showServerFieldErrors(error, setError, fieldOfPath);
      notify(messageOr(error, PLAYBACK_KEY_TEXTS.tokenRevokeFailed));
    }
  });

  return (
    <TitledCard title="Revoke a token">
      <form noValidate onSubmit={onSubmit} aria-label="Revoke a token">
        <TextField
          id="revoke-token-jti"
          label="Token id (jti)"
          autoComplete="off"
          help="Every token of your keys with this id is refused; to refuse all of a key's tokens, revoke the key."
          {...field('jti')}
        />
        <Button type="submit" variant="outline-danger" disabled={form.formState.isSubmitting}>
          Revoke token
        </Button>
      </form>
    </TitledCard>
  );
}
