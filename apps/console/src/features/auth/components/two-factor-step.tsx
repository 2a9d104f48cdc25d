import { type FormEvent, useState } from 'react';
import { FormFailure, SubmitButton } from '@/components/ui/form-failure';
import { TextField } from '@/components/ui/form-fields';
import { TICKET_EXPIRED } from '@/lib/auth-store';
import { useAuthStore } from '@/lib/services-context';

export const CODE_REQUIRED = 'Authentication code is required';

/**
 * Sign-in's second step for an account with two-factor sign-in: a code from the authenticator app or a
 * recovery code, with the password step's ticket. Loaded only when an account needs it.
 */
export default function TwoFactorStep({
  ticket,
  onSuccess,
  onRestart,
}: {
  ticket: string;
  onSuccess: () => void;
  /** The ticket expired or was used: back to the password, saying why. */
  onRestart: (reason: string) => void;
}) {
  const auth = useAuthStore();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    if (!code.trim()) {
      setError(CODE_REQUIRED);
      return;
    }
    setError(undefined);
    setSubmitting(true);
    const result = await auth.loginWithCode({ ticket, code: code.trim() });
    setSubmitting(false);
    if (result.ok) onSuccess();
    else if (result.code === TICKET_EXPIRED) onRestart(result.error);
    else {
      setFailure(result.error);
      setCode('');
    }
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Two-factor authentication">
      <FormFailure>{failure}</FormFailure>
      <TextField
        id="login-code"
        label="Authentication code"
        help="The 6-digit code from your authenticator app, or one of your recovery codes."
        autoComplete="one-time-code"
        autoFocus
        autoCapitalize="off"
        spellCheck={false}
        value={code}
        error={error}
        onChange={(event) => setCode(event.target.value)}
      />
      <SubmitButton submitting={submitting}>Verify</SubmitButton>
    </form>
  );
}
