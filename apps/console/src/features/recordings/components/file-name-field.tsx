import {
  FILE_NAME_LIMIT,
  FILE_NAME_PLACEHOLDER_HINTS,
  FILE_NAME_PLACEHOLDER_LABELS,
  FILE_NAME_PLACEHOLDERS,
  FILE_NAME_TOOLTIP,
  fileNameExample,
  placeholdersIn,
  togglePlaceholder,
} from '@streamcloud/contract';
import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { ToggleButtons } from '@/components/ui/toggle-buttons';
import { TippedLabel } from './info-tip';

export interface FileNameFieldProps {
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string | undefined;
  autostart: boolean;
  streamId: string;
  /** The stream's name for `{streamName}`; until it is loaded, the incoming form of the id. */
  streamName: string | undefined;
}

/**
 * The file name template: placeholder toggle buttons, a live example (rendered with the contract's
 * engine, as the node will) and a length counter against the 254-character limit.
 */
export function FileNameField({ value, onChange, onBlur, error, autostart, streamId, streamName }: FileNameFieldProps) {
  // One sample uuid per form, so the example does not flicker while typing.
  const [sampleUuid] = useState(() => crypto.randomUUID());
  const used = new Set(placeholdersIn(value));
  const { example, length, truncated } = fileNameExample(
    value,
    { date: new Date(), streamId, streamName: streamName ?? `in+${streamId}`, uuid: () => sampleUuid },
    { autostart },
  );

  return (
    <Form.Group className="mb-3" controlId="recording-file-name">
      <TippedLabel tip={{ label: 'About file names', text: FILE_NAME_TOOLTIP }}>File name</TippedLabel>
      <Form.Control
        value={value}
        autoComplete="off"
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        isInvalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby="recording-file-name-example recording-file-name-counter"
      />
      {error && <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>}
      <ToggleButtons
        legend="Placeholders"
        tone="secondary"
        className="mt-2"
        values={FILE_NAME_PLACEHOLDERS}
        label={(placeholder) => FILE_NAME_PLACEHOLDER_LABELS[placeholder]}
        isPressed={(placeholder) => used.has(placeholder)}
        title={(placeholder) => `{${placeholder}}: ${FILE_NAME_PLACEHOLDER_HINTS[placeholder]}`}
        onToggle={(placeholder) => onChange(togglePlaceholder(value, placeholder))}
      />
      <div className="small mt-2 d-flex flex-wrap justify-content-between gap-2">
        <span id="recording-file-name-example" className="text-break">
          Example: <code data-testid="file-name-example">{example}</code>
        </span>
        <span id="recording-file-name-counter" className={truncated ? 'text-danger' : 'text-secondary'}>
          {length} / {FILE_NAME_LIMIT}
        </span>
      </div>
      {truncated && (
        <div className="small text-danger">
          Longer than {FILE_NAME_LIMIT} characters: the name will be truncated and a uuid appended.
        </div>
      )}
    </Form.Group>
  );
}
