import type { ComponentProps, ReactNode } from 'react';
import Form from 'react-bootstrap/Form';

interface FieldFrame {
  /** Also the id of the control the label is bound to. */
  id: string;
  label: string;
  error?: string | undefined;
  /** A note under the control, which describes it. */
  hint?: string | undefined;
}

function errorId(id: string) {
  return `${id}-error`;
}

function hintId(id: string) {
  return `${id}-hint`;
}

function invalidProps(id: string, error: string | undefined, hint?: string) {
  const describedBy = [error ? errorId(id) : null, hint ? hintId(id) : null].filter(Boolean).join(' ');
  return {
    isInvalid: Boolean(error),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  };
}

function Field({ id, label, error, hint, children }: FieldFrame & { children: ReactNode }) {
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      {children}
      {hint && (
        <Form.Text id={hintId(id)} muted>
          {hint}
        </Form.Text>
      )}
      {error && (
        <Form.Control.Feedback type="invalid" id={errorId(id)}>
          {error}
        </Form.Control.Feedback>
      )}
    </Form.Group>
  );
}

export type TextFieldProps = FieldFrame &
  Omit<ComponentProps<'input'>, 'id' | 'size' | 'value'> & { value?: string | number };

/** A labelled input; spread react-hook-form's register() into it. */
export function TextField({ id, label, error, ...input }: TextFieldProps) {
  return (
    <Field id={id} label={label} error={error}>
      <Form.Control {...input} {...invalidProps(id, error)} />
    </Field>
  );
}

export type SelectFieldProps = FieldFrame & Omit<ComponentProps<'select'>, 'id' | 'size'>;

/** A labelled select; the options are its children. */
export function SelectField({ id, label, error, hint, children, ...select }: SelectFieldProps) {
  return (
    <Field id={id} label={label} error={error} hint={hint}>
      <Form.Select {...select} {...invalidProps(id, error, hint)}>
        {children}
      </Form.Select>
    </Field>
  );
}
