import { useId } from 'react';
import Form from 'react-bootstrap/Form';
import { ANALYTICS_WINDOWS, windowMinutes } from '../utils/analytics-format';
import { ANALYTICS_TEXTS } from '../utils/messages';

/** The labelled choice of the window the analytics cover. */
export function WindowSelect({ minutes, onChange }: { minutes: number; onChange: (minutes: number) => void }) {
  const id = useId();
  return (
    <Form.Group controlId={`${id}-window`} className="d-flex align-items-center gap-2">
      <Form.Label className="mb-0">{ANALYTICS_TEXTS.window}</Form.Label>
      <Form.Select size="sm" value={minutes} onChange={(event) => onChange(windowMinutes(event.target.value))}>
        {ANALYTICS_WINDOWS.map((window) => (
          <option key={window.minutes} value={window.minutes}>
            {window.label}
          </option>
        ))}
      </Form.Select>
    </Form.Group>
  );
}
