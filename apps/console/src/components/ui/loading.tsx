import Spinner from 'react-bootstrap/Spinner';

/** A spinner with a text for screen readers and eyes alike. */
export function Loading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="d-flex align-items-center gap-2 text-secondary" role="status">
      <Spinner animation="border" size="sm" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
