import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';

/**
 * Copies `value` to the clipboard; `copied` once it did. Without clipboard access (e.g. plain HTTP), the
 * control `id` is selected instead so the value can be copied by hand.
 */
export function useCopy(id: string, label: string, value: string) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch (error) {
      console.error(`Copying the ${label} failed`, error);
      (document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement | null)?.select();
    }
  };
  return { copied, copy };
}

/** A secret shown once (a node token, an API key): a labelled read-only field with a Copy button. */
export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const { copied, copy } = useCopy(id, label, value);

  return (
    <>
      <Form.Label htmlFor={id}>{label}</Form.Label>
      <InputGroup className="mb-2">
        <Form.Control
          id={id}
          readOnly
          value={value}
          className="font-monospace"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="outline-secondary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </InputGroup>
    </>
  );
}
