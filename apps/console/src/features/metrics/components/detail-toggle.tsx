import { useId } from 'react';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';

/** The Totals/Detailed switch of a metrics view: totals, or one series per location or type. */
export function DetailToggle({
  detailed,
  onChange,
  label,
}: {
  detailed: boolean;
  onChange: (detailed: boolean) => void;
  /** The group's accessible name: 'Series'. */
  label: string;
}) {
  const id = useId();
  return (
    <ToggleButtonGroup
      type="radio"
      name={`${id}-mode`}
      value={detailed ? 'Detailed' : 'Totals'}
      onChange={(value: string) => onChange(value === 'Detailed')}
      aria-label={label}
    >
      <ToggleButton id={`${id}-totals`} value="Totals" variant="outline-secondary" size="sm">
        Totals
      </ToggleButton>
      <ToggleButton id={`${id}-detailed`} value="Detailed" variant="outline-secondary" size="sm">
        Detailed
      </ToggleButton>
    </ToggleButtonGroup>
  );
}
