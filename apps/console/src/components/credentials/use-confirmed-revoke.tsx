import { messageOr } from '@streamcloud/api-client';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useNotify } from '@/components/ui/notifications';

export interface RevokeTexts {
  /** The confirm dialog's title. */
  revokeTitle: string;
  revokeQuestion: (name: string) => string;
  revoked: string;
  revokeFailed: string;
}

/** A revoke mutation, as TanStack Query's `useMutation` answers one. */
export interface RevokeMutation {
  mutate(id: string, callbacks: { onSuccess: () => void; onError: (error: unknown) => void }): void;
  isPending: boolean;
}

/**
 * Revoking a credential (API key, playback signing key) of a list: each row's Revoke button asks first, then
 * revokes and says how it went. Answers the button for a row and the one confirm dialog to render.
 */
export function useConfirmedRevoke<Key extends { id: string; name: string }>(
  revoke: RevokeMutation,
  texts: RevokeTexts,
) {
  const notify = useNotify();
  const [revoking, setRevoking] = useState<Key | null>(null);

  const confirm = () => {
    const key = revoking;
    setRevoking(null);
    if (!key) return;
    revoke.mutate(key.id, {
      onSuccess: () => notify(texts.revoked, 'success'),
      onError: (error) => notify(messageOr(error, texts.revokeFailed)),
    });
  };

  return {
    revokeButton: (key: Key) => (
      <Button
        size="sm"
        variant="outline-danger"
        aria-label={`Revoke ${key.name}`}
        disabled={revoke.isPending}
        onClick={() => setRevoking(key)}
      >
        Revoke
      </Button>
    ),
    confirmDialog: (
      <ConfirmDialog
        show={revoking !== null}
        title={texts.revokeTitle}
        message={revoking ? texts.revokeQuestion(revoking.name) : ''}
        onConfirm={confirm}
        onCancel={() => setRevoking(null)}
      />
    ),
  };
}
