import { useId } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import Form from 'react-bootstrap/Form';
import { type FilterOption, filterCaption, toggleValue } from '../utils/stream-list';

export interface MultiSelectFilterProps<T extends string> {
  label: string;
  options: readonly FilterOption<T>[];
  selected: readonly T[];
  onChange: (selected: T[]) => void;
}

/** A labelled dropdown of checkboxes; its caption shows the selected names joined by commas, or 'All'. */
export function MultiSelectFilter<T extends string>({ label, options, selected, onChange }: MultiSelectFilterProps<T>) {
  const id = useId();
  const labelId = `${id}-label`;
  const caption = filterCaption(options, selected);
  return (
    <fieldset className="d-flex flex-column gap-1" aria-labelledby={labelId}>
      <span id={labelId} className="form-label small text-secondary mb-0">
        {label}
      </span>
      <Dropdown autoClose="outside">
        <Dropdown.Toggle
          id={`${id}-toggle`}
          variant="outline-secondary"
          size="sm"
          className="text-start text-truncate w-100"
          style={{ maxWidth: '16rem' }}
          aria-label={`${label}: ${caption}`}
        >
          {caption}
        </Dropdown.Toggle>
        <Dropdown.Menu className="px-3 py-2">
          {options.map((option) => (
            <Form.Check
              key={option.value}
              id={`${id}-${option.value}`}
              type="checkbox"
              label={option.label}
              checked={selected.includes(option.value)}
              onChange={() => onChange(toggleValue(selected, option.value))}
            />
          ))}
        </Dropdown.Menu>
      </Dropdown>
    </fieldset>
  );
}
