import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useCopy } from '@/components/ui/copy-field';
import { downloadText } from '@/lib/download';

/** A secret shown once over several lines (a PEM key, a JWK): read-only, with Copy and Download. */
export function SecretBlock({
  id,
  label,
  value,
  fileName,
}: {
  id: string;
  label: string;
  value: string;
  fileName: string;
}) {
  const { copied, copy } = useCopy(id, label, value);

  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        as="textarea"
        readOnly
        rows={Math.min(8, value.split('\n').length + 1)}
        value={value}
        className="font-monospace small"
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className="d-flex gap-2 mt-2">
        <Button size="sm" variant="outline-secondary" aria-label={`Copy ${label}`} onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
        <Button
          size="sm"
          variant="outline-secondary"
          aria-label={`Download ${label}`}
          onClick={() => downloadText(fileName, value, 'text/plain;charset=utf-8')}
        >
          Download
        </Button>
      </div>
    </Form.Group>
  );
}
