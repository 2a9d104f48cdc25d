import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { CopyButton } from '@/components/ui/copy-button';

/** A Private stream's output token: masked until shown, copyable either way (the URL copy carries it too). */
export function PlaybackToken({ token }: { token: string }) {
  const id = useId();
  const [shown, setShown] = useState(false);
  return (
    <div className="d-flex align-items-center gap-2 mt-1 small" style={{ minWidth: 0 }}>
      <label htmlFor={id} className="text-secondary text-nowrap mb-0">
        Playback token
      </label>
      <input
        id={id}
        className="form-control form-control-sm font-monospace flex-grow-1"
        style={{ minWidth: 0 }}
        type={shown ? 'text' : 'password'}
        value={token}
        readOnly
        autoComplete="off"
      />
      <Button size="sm" variant="outline-secondary" className="text-nowrap" onClick={() => setShown(!shown)}>
        {shown ? 'Hide token' : 'Show token'}
      </Button>
      <CopyButton text={token} label="Copy token" />
    </div>
  );
}
