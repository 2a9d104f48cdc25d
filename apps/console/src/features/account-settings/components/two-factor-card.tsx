import { messageOr } from '@streamcloud/api-client';
import type { TwoFactorEnrolment } from '@streamcloud/contract';
import { type FormEvent, type ReactNode, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { CopyButton } from '@/components/ui/copy-button';
import { CopyField } from '@/components/ui/copy-field';
import { FormFailure } from '@/components/ui/form-failure';
import { TextField } from '@/components/ui/form-fields';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { TitledCard } from '@/components/ui/titled-card';
import { useWhoAmI } from '@/data/accounts/get-whoami';
import { downloadText } from '@/lib/download';
import { formatDateTime } from '@/lib/format';
import { useConfirmTwoFactor, useDisableTwoFactor, useStartTwoFactor, useTwoFactorStatus } from '../api/two-factor';
import { QrCode } from './qr-code';

export const TWO_FACTOR_TEXTS = {
  off: 'Two-factor authentication is off: signing in needs your password only.',
  required: 'Your administrator requires two-factor authentication for administrator accounts: enable it to continue.',
  scan: 'Scan the QR code with an authenticator app (or enter the key by hand), then enter the code it shows.',
  codeRequired: 'Authentication code is required',
  saveCodes:
    'Two-factor authentication is on. Save these recovery codes somewhere safe: each signs you in once without your device, and they are shown only now.',
  enabled: (since: string, left: number) =>
    `Two-factor authentication is on since ${since}. ${left} recovery ${left === 1 ? 'code' : 'codes'} left.`,
  disabled: 'Two-factor authentication was disabled.',
  loadingFailed: 'The two-factor authentication status could not be loaded.',
  startFailed: 'Two-factor authentication could not be started.',
  confirmFailed: 'The code could not be checked.',
  disableFailed: 'Two-factor authentication could not be disabled.',
} as const;

type Step =
  | { kind: 'idle' }
  | { kind: 'enrolling'; enrolment: TwoFactorEnrolment }
  | { kind: 'codes'; codes: string[] };

/** The account's two-factor sign-in: enable (QR code, manual key, a code, recovery codes once), disable with a code. */
export function TwoFactorCard() {
  const me = useWhoAmI();
  const status = useTwoFactorStatus(me.data?.id);
  const start = useStartTwoFactor();
  const notify = useNotify();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [disabling, setDisabling] = useState(false);

  const begin = () =>
    start.mutate(undefined, {
      onSuccess: (enrolment) => setStep({ kind: 'enrolling', enrolment }),
      onError: (error) => notify(messageOr(error, TWO_FACTOR_TEXTS.startFailed)),
    });

  let body: ReactNode;
  if (step.kind === 'enrolling') {
    body = (
      <EnrolmentForm
        enrolment={step.enrolment}
        onEnabled={(codes) => setStep({ kind: 'codes', codes })}
        onCancel={() => setStep({ kind: 'idle' })}
      />
    );
  } else if (step.kind === 'codes') {
    body = <RecoveryCodes codes={step.codes} onDone={() => setStep({ kind: 'idle' })} />;
  } else if (status.isPending) {
    body = <Loading />;
  } else if (status.isError) {
    body = <p className="text-danger mb-0">{TWO_FACTOR_TEXTS.loadingFailed}</p>;
  } else if (status.data.enabled) {
    body = (
      <>
        <p>{TWO_FACTOR_TEXTS.enabled(formatDateTime(status.data.enabledAt ?? ''), status.data.recoveryCodesLeft)}</p>
        {disabling ? (
          <DisableForm onDone={() => setDisabling(false)} />
        ) : (
          <Button variant="outline-danger" onClick={() => setDisabling(true)}>
            Disable
          </Button>
        )}
      </>
    );
  } else {
    body = (
      <>
        {me.data?.twoFactorEnrolmentRequired && <p className="alert alert-warning">{TWO_FACTOR_TEXTS.required}</p>}
        <p>{TWO_FACTOR_TEXTS.off}</p>
        <Button onClick={begin} disabled={start.isPending}>
          Enable
        </Button>
      </>
    );
  }
  return <TitledCard title="Two-factor authentication">{body}</TitledCard>;
}

/** A code field and its submit, shared by confirming and disabling. */
function CodeForm({
  name,
  submitLabel,
  help,
  onSubmit,
  children,
}: {
  name: string;
  submitLabel: string;
  help: string;
  /** Answers the failure to show, or null. */
  onSubmit: (code: string) => Promise<string | null>;
  children?: ReactNode;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!code.trim()) {
      setError(TWO_FACTOR_TEXTS.codeRequired);
      return;
    }
    setError(undefined);
    setSubmitting(true);
    const refused = await onSubmit(code.trim());
    setSubmitting(false);
    if (refused) {
      setFailure(refused);
      setCode('');
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label={name}>
      <FormFailure>{failure}</FormFailure>
      <TextField
        id={`${name.toLowerCase().replaceAll(' ', '-')}-code`}
        label="Authentication code"
        help={help}
        autoComplete="one-time-code"
        autoCapitalize="off"
        spellCheck={false}
        value={code}
        error={error}
        onChange={(event) => setCode(event.target.value)}
      />
      <div className="d-flex gap-2">
        <Button type="submit" disabled={submitting}>
          {submitLabel}
        </Button>
        {children}
      </div>
    </form>
  );
}

function EnrolmentForm({
  enrolment,
  onEnabled,
  onCancel,
}: {
  enrolment: TwoFactorEnrolment;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const confirm = useConfirmTwoFactor();
  return (
    <>
      <p>{TWO_FACTOR_TEXTS.scan}</p>
      <div className="mb-3">
        <QrCode text={enrolment.uri} label="QR code for your authenticator app" />
      </div>
      <CopyField id="two-factor-key" label="Manual key" value={enrolment.secret} />
      <CodeForm
        name="Confirm two-factor authentication"
        submitLabel="Confirm"
        help="The 6-digit code your authenticator app shows now."
        onSubmit={async (code) => {
          try {
            onEnabled((await confirm.mutateAsync(code)).recoveryCodes);
            return null;
          } catch (error) {
            return messageOr(error, TWO_FACTOR_TEXTS.confirmFailed);
          }
        }}
      >
        <Button variant="outline-secondary" onClick={onCancel}>
          Cancel
        </Button>
      </CodeForm>
    </>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `${codes.join('\n')}\n`;
  return (
    <>
      <p>{TWO_FACTOR_TEXTS.saveCodes}</p>
      <ul aria-label="Recovery codes" className="list-unstyled font-monospace row row-cols-2 mb-3">
        {codes.map((code) => (
          <li key={code} className="col">
            {code}
          </li>
        ))}
      </ul>
      <div className="d-flex gap-2">
        <CopyButton text={text} label="Copy recovery codes" small={false} />
        <Button
          variant="outline-secondary"
          onClick={() => downloadText('streamcloud-recovery-codes.txt', text, 'text/plain;charset=utf-8')}
        >
          Download
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </>
  );
}

function DisableForm({ onDone }: { onDone: () => void }) {
  const disable = useDisableTwoFactor();
  const notify = useNotify();
  return (
    <CodeForm
      name="Disable two-factor authentication"
      submitLabel="Disable two-factor authentication"
      help="A code from your authenticator app, or one of your recovery codes."
      onSubmit={async (code) => {
        try {
          await disable.mutateAsync(code);
          notify(TWO_FACTOR_TEXTS.disabled, 'success');
          onDone();
          return null;
        } catch (error) {
          return messageOr(error, TWO_FACTOR_TEXTS.disableFailed);
        }
      }}
    >
      <Button variant="outline-secondary" onClick={onDone}>
        Cancel
      </Button>
    </CodeForm>
  );
}
