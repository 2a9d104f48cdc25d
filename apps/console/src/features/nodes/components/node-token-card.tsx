import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { TitledCard } from '@/components/ui/titled-card';

/** A node token, shown this once, with a copy button. */
export function NodeTokenCard({ token, onDone }: { token: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(token);
      setCopied(true);
    } catch (error) {
      // Without clipboard access (e.g. plain HTTP), the token stays selectable in the field.
      console.error('Copying the node token failed', error);
      (document.getElementById('node-token') as HTMLInputElement | null)?.select();
    }
  };

  return (
    <TitledCard border="warning" title="Node token">
      <p>
        Copy this token now: it is shown only once. The node sends it as{' '}
        <code>Authorization: Bearer &lt;token&gt;</code> to the node-facing API.
      </p>
      <Form.Label htmlFor="node-token">Node token</Form.Label>
      <InputGroup className="mb-2">
        <Form.Control
          id="node-token"
          readOnly
          value={token}
          className="font-monospace"
          onFocus={(event) => event.currentTarget.select()}
        />
        <Button variant="outline-secondary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </InputGroup>
      <Button variant="secondary" size="sm" onClick={onDone}>
        Done
      </Button>
    </TitledCard>
  );
}
