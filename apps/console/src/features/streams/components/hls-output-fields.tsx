import { HlsLatency } from '@streamcloud/contract';
import { Options, SelectField } from '@/components/ui/form-fields';
import {
  DVR_WINDOW_CHOICES,
  DVR_WINDOW_HELP,
  dvrWindowLabel,
  HLS_LATENCY_HELP,
  HLS_LATENCY_LABELS,
} from '../utils/messages';

/**
 * An HLS output's packaging choices, in Create viewer and on each viewer: its latency, and — for Low latency, which
 * the node packages itself — its rewind window (DVR).
 */
export function HlsOutputFields({
  id,
  latency,
  dvrWindowMinutes,
  disabled,
  onLatency,
  onDvrWindow,
}: {
  /** Makes the fields' ids unique on the page. */
  id: string;
  latency: HlsLatency;
  dvrWindowMinutes: number;
  disabled?: boolean;
  onLatency: (latency: HlsLatency) => void;
  onDvrWindow: (minutes: number) => void;
}) {
  return (
    <>
      <SelectField
        id={`${id}-hls-latency`}
        label="HLS latency"
        help={HLS_LATENCY_HELP}
        value={latency}
        disabled={disabled}
        onChange={(event) => onLatency(event.target.value as HlsLatency)}
      >
        <Options values={HlsLatency.options} label={(value) => HLS_LATENCY_LABELS[value]} />
      </SelectField>
      {latency === 'Low' && (
        <SelectField
          id={`${id}-dvr-window`}
          label="DVR window"
          help={DVR_WINDOW_HELP}
          value={String(dvrWindowMinutes)}
          disabled={disabled}
          onChange={(event) => onDvrWindow(Number(event.target.value))}
        >
          {/* A window set through the API that is not one of the choices stays shown. */}
          <Options values={[...new Set([...DVR_WINDOW_CHOICES, dvrWindowMinutes])]} label={dvrWindowLabel} />
        </SelectField>
      )}
    </>
  );
}
