import funnelIcon from 'bootstrap-icons/icons/funnel.svg?raw';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Collapse from 'react-bootstrap/Collapse';
import Form from 'react-bootstrap/Form';
import { Icon } from '@/components/ui/icon';
import {
  FORMAT_OPTIONS,
  NO_FILTERS,
  OUTPUT_MODE_OPTIONS,
  STATUS_OPTIONS,
  type StreamFilters,
} from '../utils/stream-list';
import { MultiSelectFilter } from './multi-select-filter';

/** Below this window width the filters start collapsed. */
export const NARROW_WINDOW_PX = 992;

function startsOpen(): boolean {
  return typeof window === 'undefined' || window.innerWidth >= NARROW_WINDOW_PX;
}

export interface StreamFiltersBarProps {
  filters: StreamFilters;
  onChange: (filters: StreamFilters) => void;
}

/** The search box and the protocol, state and processing filters. */
export function StreamFiltersBar({ filters, onChange }: StreamFiltersBarProps) {
  const [open, setOpen] = useState(startsOpen);
  const active = filters.formats.length + filters.statuses.length + filters.outputModes.length;
  return (
    <div className="mb-3">
      <div className="d-flex flex-wrap gap-2 align-items-center">
        <Form.Control
          type="search"
          placeholder="Search by id or caption"
          aria-label="Search"
          value={filters.search}
          onChange={(event) => onChange({ ...filters, search: event.target.value })}
          style={{ maxWidth: '24rem' }}
        />
        <Button
          variant="outline-secondary"
          size="sm"
          onClick={() => setOpen((value) => !value)}
          aria-expanded={open}
          aria-controls="stream-filters"
        >
          <Icon svg={funnelIcon} className="me-1" />
          Filters{active > 0 ? ` (${active})` : ''}
        </Button>
        {active > 0 && (
          <Button variant="link" size="sm" onClick={() => onChange({ ...NO_FILTERS, search: filters.search })}>
            Clear filters
          </Button>
        )}
      </div>
      <Collapse in={open}>
        <div id="stream-filters">
          <div className="d-flex flex-wrap gap-3 pt-2">
            <MultiSelectFilter
              label="Protocol"
              options={FORMAT_OPTIONS}
              selected={filters.formats}
              onChange={(formats) => onChange({ ...filters, formats })}
            />
            <MultiSelectFilter
              label="State"
              options={STATUS_OPTIONS}
              selected={filters.statuses}
              onChange={(statuses) => onChange({ ...filters, statuses })}
            />
            <MultiSelectFilter
              label="Processing"
              options={OUTPUT_MODE_OPTIONS}
              selected={filters.outputModes}
              onChange={(outputModes) => onChange({ ...filters, outputModes })}
            />
          </div>
        </div>
      </Collapse>
    </div>
  );
}
