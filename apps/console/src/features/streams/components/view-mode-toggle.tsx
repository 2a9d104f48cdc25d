import ToggleButton from 'react-bootstrap/ToggleButton';
import ToggleButtonGroup from 'react-bootstrap/ToggleButtonGroup';
import type { ViewMode } from '../utils/view-mode';

/** List or grid. */
export function ViewModeToggle({ mode, onChange }: { mode: ViewMode; onChange: (mode: ViewMode) => void }) {
  return (
    <ToggleButtonGroup type="radio" name="streams-view-mode" value={mode} onChange={onChange} aria-label="View">
      <ToggleButton id="streams-view-list" value="list" variant="outline-secondary" size="sm">
        <i className="bi bi-list-ul me-1" aria-hidden="true" />
        List
      </ToggleButton>
      <ToggleButton id="streams-view-grid" value="grid" variant="outline-secondary" size="sm">
        <i className="bi bi-grid-3x3-gap me-1" aria-hidden="true" />
        Grid
      </ToggleButton>
    </ToggleButtonGroup>
  );
}
