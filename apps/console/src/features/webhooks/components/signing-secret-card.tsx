import { messageOr } from '@streamcloud/api-client';
import { webhookRoutes } from '@streamcloud/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import InputGroup from 'react-bootstrap/InputGroup';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { TitledCard } from '@/components/ui/titled-card';
import { useRouteMutation } from '@/data/route-mutation';
import { useRouteQuery } from '@/data/route-query';
import { webhookKeys } from '@/data/webhooks/keys';
import { formatDateTime } from '@/lib/format';

export const SECRET_TEXTS = {
  loadingFailed: 'The signing secret could not be loaded.',
  rotateQuestion:
    'Rotate the signing secret? The new secret signs every callback from now on; the current one keeps signing alongside it for 24 hours.',
  rotated: 'The signing secret was rotated.',
  rotateFailed: 'The signing secret could not be rotated.',
  copied: 'The signing secret was copied.',
} as const;

/** The account's signing secret, hidden until shown, with Copy and Rotate. */
export function SigningSecretCard({ account }: { account: string | undefined }) {
  // The signing secret of the caller's account, or of `account` (ADMIN).
  const secret = useRouteQuery(webhookRoutes.secret, webhookKeys.secret(account), {
    query: account ? { account } : {},
  });
  const rotate = useRouteMutation(webhookRoutes.rotateSecret, {
    toRequest: () => ({ body: account ? { account } : {} }),
    sets: () => webhookKeys.secret(account),
  });
  const notify = useNotify();
  const [shown, setShown] = useState(false);
  const [asking, setAsking] = useState(false);

  const confirmRotate = () => {
    setAsking(false);
    rotate.mutate(undefined, {
      onSuccess: () => notify(SECRET_TEXTS.rotated, 'success'),
      onError: (error) => notify(messageOr(error, SECRET_TEXTS.rotateFailed)),
    });
  };

  const copy = async (value: string) => {
    await navigator.clipboard.writeText(value);
    notify(SECRET_TEXTS.copied, 'success');
  };

  return (
    <TitledCard title="Signing secret">
      <p className="text-secondary small">
        Every callback is signed with this secret (Standard Webhooks: the <code>webhook-signature</code> header). Keep
        it on your receiver only.
      </p>
      {secret.isPending ? (
        <Loading />
      ) : secret.isError ? (
        <p className="text-danger mb-0">{SECRET_TEXTS.loadingFailed}</p>
      ) : (
        <>
          <label htmlFor="webhook-signing-secret" className="form-label">
            Signing secret
          </label>
          <InputGroup className="mb-2">
            <input
              id="webhook-signing-secret"
              className="form-control font-monospace"
              type={shown ? 'text' : 'password'}
              value={secret.data.secret}
              readOnly
              autoComplete="off"
            />
            <Button variant="outline-secondary" onClick={() => setShown(!shown)}>
              {shown ? 'Hide' : 'Show'}
            </Button>
            <Button variant="outline-secondary" onClick={() => void copy(secret.data.secret)}>
              Copy
            </Button>
          </InputGroup>
          <p className="small text-secondary mb-2">
            In use since {formatDateTime(secret.data.createdAt)}.
            {secret.data.previousExpiresAt &&
              ` The previous secret also signs until ${formatDateTime(secret.data.previousExpiresAt)}.`}
          </p>
          <Button variant="outline-danger" disabled={rotate.isPending} onClick={() => setAsking(true)}>
            Rotate secret
          </Button>
        </>
      )}
      <ConfirmDialog
        show={asking}
        message={SECRET_TEXTS.rotateQuestion}
        onConfirm={confirmRotate}
        onCancel={() => setAsking(false)}
      />
    </TitledCard>
  );
}
