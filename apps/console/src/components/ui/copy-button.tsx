import clipboardIcon from 'bootstrap-icons/icons/clipboard.svg?raw';
import clipboardCheckIcon from 'bootstrap-icons/icons/clipboard-check.svg?raw';
import { useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Icon } from '@/components/ui/icon';

async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (error) {
    console.error('Copying to the clipboard failed', error);
    return false;
  }
}

/** Copies a text to the clipboard and says so for a moment; small beside a value, full size in a row of buttons. */
export function CopyButton({ text, label, small = true }: { text: string; label: string; small?: boolean }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <Button
      variant="outline-secondary"
      size={small ? 'sm' : undefined}
      aria-label={label}
      title={label}
      onClick={() => void copyText(text).then((ok) => setState(ok ? 'copied' : 'failed'))}
    >
      <Icon svg={state === 'copied' ? clipboardCheckIcon : clipboardIcon} />
      <span className="ms-1 small" aria-live="polite">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy'}
      </span>
    </Button>
  );
}

/** A read-only value with its copy button; `copy` is what is copied when it differs from what is shown. */
export function CopyableValue({ value, label, copy = value }: { value: string; label: string; copy?: string }) {
  return (
    <div className="d-flex align-items-center gap-2" style={{ minWidth: 0 }}>
      <code className="text-break flex-grow-1" style={{ minWidth: 0 }}>
        {value}
      </code>
      <CopyButton text={copy} label={label} />
    </div>
  );
}
