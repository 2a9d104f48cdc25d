import type { ReportMode } from '@streamcloud/contract';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';
import { REPORT_MODES } from '../utils/report-model';

/** Totals, Detailed or Very detailed: only what is shown changes, never a new call. */
export function ReportModeSelector({ value, onChange }: { value: ReportMode; onChange: (mode: ReportMode) => void }) {
  return (
    <ToggleButtonGroup
      type="radio"
      name="billing-report-mode"
      value={value}
      onChange={onChange}
      aria-label="Report detail"
    >
      {REPORT_MODES.map((mode) => (
        <ToggleButton
          key={mode.value}
          id={`billing-report-mode-${mode.value}`}
          value={mode.value}
          variant="outline-secondary"
          size="sm"
        >
          {mode.label}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}
