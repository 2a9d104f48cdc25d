import type { ComponentProps, ReactNode } from 'react';
import Form from 'react-bootstrap/Form';

interface FieldFrame {
  /** Also the id of the control the label is bound to. */
  id: string;
  label: string;
  error?: string | undefined;
}

function errorId(id: string) {
  return `${id}-error`;
}

function invalidProps(id: string, error: string | undefined) {
  return {
    isInvalid: Boolean(error),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId(id) : undefined,
  };
}

function Field({ id, label, error, children }: FieldFrame & { children: ReactNode }) {
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      {children}
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
export function SelectField({ id, label, error, children, ...select }: SelectFieldProps) {
  return (
    <Field id={id} label={label} error={error}>
      <Form.Select {...select} {...invalidProps(id, error)}>
        {children}
      </Form.Select>
    </Field>
  );
}
