import { useId } from 'react';
import Form from 'react-bootstrap/Form';

export interface DateRange {
  /** yyyy-mm-dd */
  from: string;
  to: string;
}

export type DateEnd = keyof DateRange;

/** The range after picking `date` for one end: by default that end alone changes. */
export type PickDate = (range: DateRange, end: DateEnd, date: string) => DateRange;

const pickOneEnd: PickDate = (range, end, date) => ({ ...range, [end]: date });

const LABELS: Record<DateEnd, string> = { from: 'From', to: 'To' };

export interface DateRangeFieldsProps {
  value: DateRange;
  onChange: (range: DateRange) => void;
  /** How a picked date changes the range (the metrics fill the other end from their preset). */
  pick?: PickDate;
}

/** From and To date pickers (yyyy-mm-dd); neither offers a day past the other. */
export function DateRangeFields({ value, onChange, pick = pickOneEnd }: DateRangeFieldsProps) {
  const id = useId();
  return (
    <>
      {(['from', 'to'] as const).map((end) => (
        <Form.Group key={end} controlId={`${id}-${end}`} className="d-flex align-items-center gap-2">
          <Form.Label className="mb-0">{LABELS[end]}</Form.Label>
          <Form.Control
            type="date"
            value={value[end]}
            min={end === 'to' ? value.from || undefined : undefined}
            max={end === 'from' ? value.to || undefined : undefined}
            onChange={(event) => onChange(pick(value, end, event.target.value))}
          />
        </Form.Group>
      ))}
    </>
  );
}
