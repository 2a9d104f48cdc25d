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
import {
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useStartTwoFactor,
  useTwoFactorStatus,
} from '@/data/account-settings/two-factor';
import { useWhoAmI } from '@/data/accounts/get-whoami';
import { downloadText } from '@/lib/download';
import { formatDateTime } from '@/lib/format';
import { QrCode } from './qr-code';

export const TWO_FACTOR_TEXTS = {
  off: 'Two-factor authentication is off: signing in needs your password only.',
  required: 'Your administrator requires two-factor authentication for administrator accounts: enable it to continue.',
  scan: 'Scan the QR code with an authenticator app (or enter the key by hand), then enter the code it shows.',
  codeRequired: 'Authentication code is required',
  passwordRequired: 'Password is required',
  passwordHelp: 'Enter your password again to set up an authenticator app.',
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
  | { kind: 'password' }
  | { kind: 'enrolling'; enrolment: TwoFactorEnrolment }
  | { kind: 'codes'; codes: string[] };

/** The account's two-factor sign-in: enable (QR code, manual key, a code, recovery codes once), disable with a code. */
export function TwoFactorCard() {
  const me = useWhoAmI();
  const status = useTwoFactorStatus(me.data?.id);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [disabling, setDisabling] = useState(false);

  let body: ReactNode;
  if (step.kind === 'password') {
    body = (
      <PasswordForm
        onStarted={(enrolment) => setStep({ kind: 'enrolling', enrolment })}
        onCancel={() => setStep({ kind: 'idle' })}
      />
    );
  } else if (step.kind === 'enrolling') {
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
        <Button onClick={() => setStep({ kind: 'password' })}>Enable</Button>
      </>
    );
  }
  return <TitledCard title="Two-factor authentication">{body}</TitledCard>;
}

/** What a one-field form asks for: a code of the app (or a recovery code), or the account's password. */
const FIELDS = {
  code: {
    label: 'Authentication code',
    type: 'text',
    autoComplete: 'one-time-code',
    required: TWO_FACTOR_TEXTS.codeRequired,
    read: (value: string) => value.trim(),
  },
  password: {
    label: 'Password',
    type: 'password',
    autoComplete: 'current-password',
    required: TWO_FACTOR_TEXTS.passwordRequired,
    read: (value: string) => value,
  },
} as const;

/** One field (a code, or the password) and its submit: starting, confirming and disabling. */
function OneFieldForm({
  name,
  field = 'code',
  submitLabel,
  help,
  onSubmit,
  children,
}: {
  name: string;
  field?: keyof typeof FIELDS;
  submitLabel: string;
  help: string;
  /** Answers the failure to show, or null. */
  onSubmit: (value: string) => Promise<string | null>;
  children?: ReactNode;
}) {
  const kind = FIELDS[field];
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    if (!value.trim()) {
      setError(kind.required);
      return;
    }
    setError(undefined);
    setSubmitting(true);
    const refused = await onSubmit(kind.read(value));
    setSubmitting(false);
    if (refused) {
      setFailure(refused);
      setValue('');
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-label={name}>
      <FormFailure>{failure}</FormFailure>
      <TextField
        id={`${name.toLowerCase().replaceAll(' ', '-')}-${field}`}
        label={kind.label}
        type={kind.type}
        help={help}
        autoComplete={kind.autoComplete}
        autoCapitalize="off"
        spellCheck={false}
        value={value}
        error={error}
        onChange={(event) => setValue(event.target.value)}
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

/** Enrolment's first step: the account's password again, then a new secret (a stolen session alone cannot). */
function PasswordForm({
  onStarted,
  onCancel,
}: {
  onStarted: (enrolment: TwoFactorEnrolment) => void;
  onCancel: () => void;
}) {
  const start = useStartTwoFactor();
  return (
    <OneFieldForm
      name="Confirm your password"
      field="password"
      submitLabel="Continue"
      help={TWO_FACTOR_TEXTS.passwordHelp}
      onSubmit={async (password) => {
        try {
          onStarted(await start.mutateAsync(password));
          return null;
        } catch (error) {
          return messageOr(error, TWO_FACTOR_TEXTS.startFailed);
        }
      }}
    >
      <Button variant="outline-secondary" onClick={onCancel}>
        Cancel
      </Button>
    </OneFieldForm>
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
      <OneFieldForm
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
      </OneFieldForm>
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
    <OneFieldForm
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
    </OneFieldForm>
  );
}
