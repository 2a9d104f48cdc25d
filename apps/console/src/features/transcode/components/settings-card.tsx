import { SCTE35_MODES, type TranscodeConfig } from '@streamcloud/contract';
import Form from 'react-bootstrap/Form';
import { SelectField } from '@/components/ui/form-fields';
import { CollapsibleCard } from './collapsible-card';

export interface SettingsCardProps {
  config: TranscodeConfig;
  disabled: boolean;
  onChange: (config: TranscodeConfig) => void;
}

/** Ad-marker (SCTE-35) mode and the epoch time encoder. */
export function SettingsCard({ config, disabled, onChange }: SettingsCardProps) {
  return (
    <CollapsibleCard title="Settings">
      <SelectField
        id="transcode-scte35-mode"
        label="Ad-marker mode"
        value={config.scte35.mode}
        disabled={disabled}
        onChange={(event) =>
          onChange({ ...config, scte35: { mode: event.target.value as TranscodeConfig['scte35']['mode'] } })
        }
      >
        {SCTE35_MODES.map((mode) => (
          <option key={mode} value={mode}>
            {mode}
          </option>
        ))}
      </SelectField>
      <Form.Check
        type="switch"
        id="transcode-time-encoder"
        label="Time encoder"
        checked={config.epochTimeEncoder.enabled}
        disabled={disabled}
        onChange={(event) => onChange({ ...config, epochTimeEncoder: { enabled: event.target.checked } })}
      />
    </CollapsibleCard>
  );
}
