import funnelIcon from 'bootstrap-icons/icons/funnel.svg?raw';
import { memo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Collapse from 'react-bootstrap/Collapse';
import Form from 'react-bootstrap/Form';
import { Icon } from '@/components/ui/icon';
import {
  FORMAT_OPTIONS,
  NO_CHOICES,
  OUTPUT_MODE_OPTIONS,
  STATUS_OPTIONS,
  type StreamChoices,
} from '../utils/stream-list';
import { MultiSelectFilter } from './multi-select-filter';

/** Below this window width the filters start collapsed. */
export const NARROW_WINDOW_PX = 992;

function startsOpen(): boolean {
  return typeof window === 'undefined' || window.innerWidth >= NARROW_WINDOW_PX;
}

export interface StreamFiltersBarProps {
  search: string;
  onSearch: (search: string) => void;
  choices: StreamChoices;
  /** A state setter, so that it stays the same from one render to the next. */
  onChoices: (choices: StreamChoices) => void;
}

/**
 * The search box and the protocol, state and processing filters. A keystroke renders the search box again,
 * not the filters: they are memoised on the choices (10,000 streams are filtered on every keystroke, and the
 * frame that shows the result must not wait for dropdowns that did not change).
 */
export function StreamFiltersBar({ search, onSearch, choices, onChoices }: StreamFiltersBarProps) {
  const [open, setOpen] = useState(startsOpen);
  return (
    <div className="mb-3">
      <div className="d-flex flex-wrap gap-2 align-items-center">
        <Form.Control
          type="search"
          placeholder="Search by id or caption"
          aria-label="Search"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          style={{ maxWidth: '24rem' }}
        />
        <FilterButtons open={open} onToggle={setOpen} choices={choices} onChoices={onChoices} />
      </div>
      <FilterChoices open={open} choices={choices} onChoices={onChoices} />
    </div>
  );
}

interface ChoicesProps {
  open: boolean;
  choices: StreamChoices;
  onChoices: (choices: StreamChoices) => void;
}

const FilterButtons = memo(function FilterButtons({
  open,
  onToggle,
  choices,
  onChoices,
}: ChoicesProps & { onToggle: (update: (open: boolean) => boolean) => void }) {
  const active = choices.formats.length + choices.statuses.length + choices.outputModes.length;
  return (
    <>
      <Button
        variant="outline-secondary"
        size="sm"
        onClick={() => onToggle((value) => !value)}
        aria-expanded={open}
        aria-controls="stream-filters"
      >
        <Icon svg={funnelIcon} className="me-1" />
        Filters{active > 0 ? ` (${active})` : ''}
      </Button>
      {active > 0 && (
        <Button variant="link" size="sm" onClick={() => onChoices(NO_CHOICES)}>
          Clear filters
        </Button>
      )}
    </>
  );
});

const FilterChoices = memo(function FilterChoices({ open, choices, onChoices }: ChoicesProps) {
  return (
    <Collapse in={open}>
      <div id="stream-filters">
        <div className="d-flex flex-wrap gap-3 pt-2">
          <MultiSelectFilter
            label="Protocol"
            options={FORMAT_OPTIONS}
            selected={choices.formats}
            onChange={(formats) => onChoices({ ...choices, formats })}
          />
          <MultiSelectFilter
            label="State"
            options={STATUS_OPTIONS}
            selected={choices.statuses}
            onChange={(statuses) => onChoices({ ...choices, statuses })}
          />
          <MultiSelectFilter
            label="Processing"
            options={OUTPUT_MODE_OPTIONS}
            selected={choices.outputModes}
            onChange={(outputModes) => onChoices({ ...choices, outputModes })}
          />
        </div>
      </div>
    </Collapse>
  );
});
