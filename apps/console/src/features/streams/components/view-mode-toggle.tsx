import grid3x3GapIcon from 'bootstrap-icons/icons/grid-3x3-gap.svg?raw';
import listUlIcon from 'bootstrap-icons/icons/list-ul.svg?raw';
import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';
import { Icon } from '@/components/ui/icon';
import type { ViewMode } from '../utils/view-mode';

/** List or grid. */
export function ViewModeToggle({ mode, onChange }: { mode: ViewMode; onChange: (mode: ViewMode) => void }) {
  return (
    <ToggleButtonGroup type="radio" name="streams-view-mode" value={mode} onChange={onChange} aria-label="View">
      <ToggleButton id="streams-view-list" value="list" variant="outline-secondary" size="sm">
        <Icon svg={listUlIcon} className="me-1" />
        List
      </ToggleButton>
      <ToggleButton id="streams-view-grid" value="grid" variant="outline-secondary" size="sm">
        <Icon svg={grid3x3GapIcon} className="me-1" />
        Grid
      </ToggleButton>
    </ToggleButtonGroup>
  );
}
