import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';

/** A secret shown once (a node token, an API key): a labelled read-only field with a Copy button. */
export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState(false);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch (error) {
      // Without clipboard access (e.g. plain HTTP), the value stays selectable in the field.
      console.error(`Copying the ${label} failed`, error);
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  };

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
