import type { UseFormRegisterReturn } from 'react-hook-form';
import { CheckField, type CheckFieldProps, TextField, UrlField } from '@/components/ui/form-fields';

/** `noun` ('recording') prefixes the control's id: `recording-stream-id`. */
type Registered = UseFormRegisterReturn & { noun: string; error: string | undefined };

/** The job's stream, read-only. */
export function StreamIdField({ noun, error, ...registration }: Registered) {
  return <TextField id={`${noun}-stream-id`} label="Stream ID" readOnly error={error} {...registration} />;
}

/** Where the node reports the job's events; empty for none. */
export function CallbackUriField({ noun, error, ...registration }: Registered) {
  return (
    <UrlField
      id={`${noun}-callback-uri`}
      label="Callback URI"
      placeholder={`https://example.com/${noun}-events`}
      error={error}
      {...registration}
    />
  );
}

type CheckInput = Omit<CheckFieldProps, 'id' | 'label' | 'help'>;

/** Start the job each time the stream starts ingesting; `help` says so in the feature's words. */
export function AutostartField({ noun, help, ...check }: CheckInput & { noun: string; help: string }) {
  return <CheckField id={`${noun}-autostart`} label="Autostart" help={help} {...check} />;
}
