import { SCTE35_MODES, type TranscodeConfig } from '@streamcloud/contract';
import Form from 'react-bootstrap/Form';
import { ChoiceField } from '@/components/ui/form-fields';
import { CollapsibleCard } from './collapsible-card';

export interface SettingsCardProps {
  config: TranscodeConfig;
  disabled: boolean;
  onChange: (config: TranscodeConfig) => void;
}

/** What the media nodes do with the ad-marker mode (docs/decisions.md, "SCTE-35"). */
export const SCTE35_HINT =
  'Ad markers (SCTE-35) are not carried yet: media nodes repackage every push through RTMP, which has no ' +
  'SCTE-35, so Passthrough and SpliceMedia act as None.';

/** Ad-marker (SCTE-35) mode and the epoch time encoder. */
export function SettingsCard({ config, disabled, onChange }: SettingsCardProps) {
  return (
    <CollapsibleCard title="Settings">
      <ChoiceField
        id="transcode-scte35-mode"
        label="Ad-marker mode"
        help={SCTE35_HINT}
        values={SCTE35_MODES}
        value={config.scte35.mode}
        disabled={disabled}
        onChoose={(mode) => onChange({ ...config, scte35: { mode } })}
      />
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
