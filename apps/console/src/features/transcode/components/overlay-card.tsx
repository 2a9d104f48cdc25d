import { OVERLAY_IMAGE_LIMITS, Overlay, type TranscodeConfig } from '@streamcloud/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { TextField } from '@/components/ui/form-fields';
import { useNotify } from '@/components/ui/notifications';
import { useImageFileInput } from '@/lib/use-image-file-input';
import { CollapsibleCard } from './collapsible-card';

type Offset = 'offsetX' | 'offsetY';

/** The two offset inputs: the field, its label and its input's id. */
const OFFSETS: readonly (readonly [Offset, string, string])[] = [
  ['offsetX', 'Offset X', 'transcode-overlay-offset-x'],
  ['offsetY', 'Offset Y', 'transcode-overlay-offset-y'],
];

const offsetText = (value: number) => (Number.isNaN(value) ? '' : String(value));
const offsetOf = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

function offsetError(field: Offset, text: string): string | undefined {
  const result = Overlay.shape[field].safeParse(text.trim() === '' ? undefined : Number(text));
  return result.success ? undefined : result.error.issues[0]?.message;
}

export interface OverlayCardProps {
  config: TranscodeConfig;
  disabled: boolean;
  onChange: (config: TranscodeConfig) => void;
}

/** The overlay logo: a PNG or JPEG up to 1 MB (refused when both sides exceed 360 px), its offsets, a preview. */
export function OverlayCard({ config, disabled, onChange }: OverlayCardProps) {
  const notify = useNotify();
  const { overlay } = config;
  const [texts, setTexts] = useState<Record<Offset, string>>(() => ({
    offsetX: overlay ? offsetText(overlay.offsetX) : '0',
    offsetY: overlay ? offsetText(overlay.offsetY) : '0',
  }));
  const overlayFile = useImageFileInput(
    OVERLAY_IMAGE_LIMITS,
    (dataUri) => {
      const offsets = overlay ? { offsetX: overlay.offsetX, offsetY: overlay.offsetY } : { offsetX: 0, offsetY: 0 };
      if (!overlay) setTexts({ offsetX: '0', offsetY: '0' });
      onChange({ ...config, overlay: { data: dataUri, ...offsets } });
    },
    notify,
  );

  const setOffset = (field: Offset, text: string) => {
    setTexts((current) => ({ ...current, [field]: text }));
    if (overlay) onChange({ ...config, overlay: { ...overlay, [field]: offsetOf(text) } });
  };

  const remove = () => {
    setTexts({ offsetX: '0', offsetY: '0' });
    onChange({ ...config, overlay: null });
  };

  return (
    <CollapsibleCard title="Overlay">
      <Form.Group className="mb-3" controlId="transcode-overlay-file">
        <Form.Label>Overlay image</Form.Label>
        <Form.Control
          type="file"
          accept="image/png,image/jpeg"
          disabled={disabled || overlayFile.reading}
          aria-describedby="transcode-overlay-help"
          onChange={overlayFile.onChange}
        />
        <Form.Text id="transcode-overlay-help">PNG or JPEG, at most 1 MB and 360x360 px.</Form.Text>
      </Form.Group>
      {overlay ? (
        <div className="d-flex flex-wrap gap-4 align-items-start">
          <figure className="mb-0">
            <img
              src={overlay.data}
              alt="Overlay preview"
              className="img-thumbnail overlay-preview"
              style={{ maxWidth: 180, maxHeight: 180 }}
            />
          </figure>
          <div>
            {OFFSETS.map(([field, label, id]) => (
              <TextField
                key={field}
                id={id}
                label={label}
                type="number"
                min={0}
                step={1}
                value={texts[field]}
                disabled={disabled}
                error={offsetError(field, texts[field])}
                onChange={(event) => setOffset(field, event.target.value)}
              />
            ))}
            <Button variant="outline-danger" disabled={disabled} onClick={remove}>
              Remove overlay
            </Button>
          </div>
        </div>
      ) : (
        <p className="text-secondary mb-0">No overlay.</p>
      )}
    </CollapsibleCard>
  );
}
