import { useId } from 'react';
import Form from 'react-bootstrap/Form';

export interface DateRange {
  /** yyyy-mm-dd */
  from: string;
  to: string;
}

/** From and To date pickers (yyyy-mm-dd). */
export function DateRangeFields({ value, onChange }: { value: DateRange; onChange: (range: DateRange) => void }) {
  const id = useId();
  return (
    <>
      <Form.Group controlId={`${id}-from`} className="d-flex align-items-center gap-2">
        <Form.Label className="mb-0">From</Form.Label>
        <Form.Control
          type="date"
          value={value.from}
          max={value.to || undefined}
          onChange={(event) => onChange({ ...value, from: event.target.value })}
        />
      </Form.Group>
      <Form.Group controlId={`${id}-to`} className="d-flex align-items-center gap-2">
        <Form.Label className="mb-0">To</Form.Label>
        <Form.Control
          type="date"
          value={value.to}
          min={value.from || undefined}
          onChange={(event) => onChange({ ...value, to: event.target.value })}
        />
      </Form.Group>
    </>
  );
}
