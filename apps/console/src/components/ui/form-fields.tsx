import type { ComponentProps, ReactNode } from 'react';
import Form from 'react-bootstrap/Form';

interface FieldFrame {
  /** Also the id of the control the label is bound to. */
  id: string;
  label: string;
  error?: string | undefined;
  /** A line under the control that describes it. */
  help?: ReactNode;
}

const errorId = (id: string) => `${id}-error`;
const helpId = (id: string) => `${id}-help`;

/** The control's validity and what describes it: its help, then its error. */
function describedProps(id: string, error: string | undefined, help: ReactNode) {
  const describedBy = [help ? helpId(id) : '', error ? errorId(id) : ''].filter(Boolean).join(' ');
  return {
    isInvalid: Boolean(error),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  };
}

function Field({ id, label, error, help, children }: FieldFrame & { children: ReactNode }) {
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      {children}
      {help && <Form.Text id={helpId(id)}>{help}</Form.Text>}
      {error && (
        <Form.Control.Feedback type="invalid" id={errorId(id)}>
          {error}
        </Form.Control.Feedback>
      )}
    </Form.Group>
  );
}

export type TextFieldProps = FieldFrame &
  Omit<ComponentProps<'input'>, 'id' | 'size' | 'value'> & {
    value?: string | number;
    /** A read-only value shown as text rather than in a box (with `readOnly`). */
    plaintext?: boolean;
  };

/** A labelled input; spread react-hook-form's register() into it. */
export function TextField({ id, label, error, help, ...input }: TextFieldProps) {
  return (
    <Field id={id} label={label} error={error} help={help}>
      <Form.Control {...input} {...describedProps(id, error, help)} />
    </Field>
  );
}

export type TextAreaFieldProps = FieldFrame & Omit<ComponentProps<'textarea'>, 'id' | 'value'> & { value?: string };

/** A labelled multi-line text input; spread react-hook-form's register() into it. */
export function TextAreaField({ id, label, error, help, ...textarea }: TextAreaFieldProps) {
  return (
    <Field id={id} label={label} error={error} help={help}>
      <Form.Control as="textarea" {...textarea} {...describedProps(id, error, help)} />
    </Field>
  );
}

/** A labelled number input (`min`, `max`, `step` as the rule says); the form reads its text. */
export function NumberField(props: Omit<TextFieldProps, 'type'>) {
  return <TextField type="number" {...props} />;
}

/**
 * A labelled URL input: an address the platform calls or reaches (a callback, an endpoint), so the browser
 * offers no autofill; the contract's schema says which schemes it takes.
 */
export function UrlField(props: Omit<TextFieldProps, 'type' | 'autoComplete'>) {
  return <TextField type="url" autoComplete="off" {...props} />;
}

export type SecretFieldProps = Omit<TextFieldProps, 'type' | 'placeholder' | 'help'> & {
  /** Whether the server holds a value, which it never sends back. */
  isSet: boolean;
  /** What the empty input shows while a value is set: `Set (hidden)`. */
  setPlaceholder: string;
  /** What the input is for while a value is set: leave it blank to keep it... */
  setHelp: string;
};

/** A write-only secret (a key, a password): never shown; blank keeps the stored one, text replaces it. */
export function SecretField({ isSet, setPlaceholder, setHelp, ...field }: SecretFieldProps) {
  return (
    <TextField
      type="password"
      autoComplete="new-password"
      placeholder={isSet ? setPlaceholder : undefined}
      help={isSet ? setHelp : undefined}
      {...field}
    />
  );
}

export type SelectFieldProps = FieldFrame & Omit<ComponentProps<'select'>, 'id' | 'size'>;

/** A labelled select; the options are its children. */
export function SelectField({ id, label, error, help, children, ...select }: SelectFieldProps) {
  return (
    <Field id={id} label={label} error={error} help={help}>
      <Form.Select {...select} {...describedProps(id, error, help)}>
        {children}
      </Form.Select>
    </Field>
  );
}

/** One `<option>` per value, labelled by `label` (the value itself by default): a select's children. */
export function Options<V extends string | number>({
  values,
  label,
}: {
  values: readonly V[];
  label?: (value: V) => ReactNode;
}) {
  return values.map((value) => (
    <option key={value} value={value}>
      {label ? label(value) : value}
    </option>
  ));
}

type Choice<V extends string> =
  | { none?: undefined; value: V; onChoose: (value: V) => void }
  | {
      /** An empty first choice, labelled so ("Any", "None"); chosen, it hands on ''. */
      none: string;
      value: V | '';
      onChoose: (value: V | '') => void;
    };

export type ChoiceFieldProps<V extends string> = Omit<SelectFieldProps, 'value' | 'onChange' | 'children'> &
  Choice<V> & {
    values: readonly V[];
    /** How a value reads in the list (the value itself by default). */
    optionLabel?: (value: V) => ReactNode;
  };

/**
 * A labelled select of one of `values` held in the screen's state: it hands on the value chosen, typed as the
 * list's, rather than the DOM's string for each screen to cast.
 */
export function ChoiceField<V extends string>(props: ChoiceFieldProps<V>) {
  const { values, optionLabel, none, value, onChoose, ...select } = props;
  const choose = (chosen: string) => {
    const known = values.find((candidate) => candidate === chosen);
    if (known !== undefined) onChoose(known);
    else if (props.none !== undefined) props.onChoose('');
  };
  return (
    <SelectField {...select} value={value} onChange={(event) => choose(event.target.value)}>
      {none !== undefined && <option value="">{none}</option>}
      <Options values={values} label={optionLabel} />
    </SelectField>
  );
}

export type CheckFieldProps = Omit<FieldFrame, 'error'> &
  Omit<ComponentProps<typeof Form.Check>, 'id' | 'label' | 'type'> & {
    /** A switch reads as on/off; a checkbox (the default) as a choice. */
    kind?: 'checkbox' | 'switch';
  };

/** A labelled checkbox or switch with an optional line that says what it does. */
export function CheckField({ id, label, help, kind = 'checkbox', className, ...check }: CheckFieldProps) {
  return (
    <Form.Group className={className ?? 'mb-3'} controlId={id}>
      <Form.Check type={kind} label={label} aria-describedby={help ? helpId(id) : undefined} {...check} />
      {help && (
        <Form.Text id={helpId(id)} className="d-block mt-0">
          {help}
        </Form.Text>
      )}
    </Form.Group>
  );
}
