/** A spinner with a text for screen readers and eyes alike. */
export function Loading({ label = 'Loading...' }: { label?: string }) {
  return (
    <div className="d-flex align-items-center gap-2 text-secondary" role="status">
      {/* Bootstrap's spinner markup: the app shell shows this wait before any react-bootstrap is loaded. */}
      <span className="spinner-border spinner-border-sm" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
