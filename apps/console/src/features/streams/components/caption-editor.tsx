import pencilIcon from 'bootstrap-icons/icons/pencil.svg?raw';
import { type KeyboardEvent, useRef, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { Icon } from '@/components/ui/icon';
import { CAPTION_TOOLTIP } from '../utils/messages';

export interface CaptionEditorProps {
  caption: string | null;
  /** Shown when there is no caption. */
  placeholder: string;
  /** Saves the new caption; the editor closes whatever the outcome. */
  onSave: (caption: string) => void;
  disabled?: boolean;
}

/** The caption as a heading; a click turns it into an input saved on blur or Enter (Escape cancels). */
export function CaptionEditor({ caption, placeholder, onSave, disabled = false }: CaptionEditorProps) {
  const [draft, setDraft] = useState<string | null>(null);
  // Enter saves and closes the input, whose blur must not save a second time.
  const done = useRef(false);

  const open = () => {
    if (disabled) return;
    done.current = false;
    setDraft(caption ?? '');
  };

  const finish = (save: boolean) => {
    if (done.current || draft === null) return;
    done.current = true;
    const next = draft.trim();
    setDraft(null);
    if (save && next !== (caption ?? '')) onSave(next);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      finish(true);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      finish(false);
    }
  };

  if (draft !== null) {
    return (
      <Form.Control
        aria-label="Caption"
        autoFocus
        value={draft}
        maxLength={255}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => finish(true)}
        onKeyDown={onKeyDown}
        className="fs-4"
      />
    );
  }
  return (
    <button
      type="button"
      className="stream-caption btn btn-link p-0 text-reset text-decoration-none text-start fs-4 fw-semibold text-break"
      title={CAPTION_TOOLTIP}
      onClick={open}
      disabled={disabled}
    >
      {caption || <span className="text-secondary font-monospace fs-5">{placeholder}</span>}
      <Icon svg={pencilIcon} className="ms-2 fs-6 text-secondary" />
    </button>
  );
}
