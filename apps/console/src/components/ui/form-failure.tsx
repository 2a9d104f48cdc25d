import type { ReactNode } from 'react';

/**
 * Why a form's submit failed, announced at once; nothing while it has not. Bootstrap's markup without
 * react-bootstrap, so the sign-in page can use it and stay small.
 */
export function FormFailure({ children, className = '' }: { children: ReactNode; className?: string }) {
  if (!children) return null;
  return (
    <div role="alert" className={`alert alert-danger ${className}`.trim()}>
      {children}
    </div>
  );
}

/** A form's full-width submit button, with a spinner and disabled while the form is sent. */
export function SubmitButton({
  submitting,
  disabled = false,
  children,
}: {
  submitting: boolean;
  /** Disabled for another reason than a submit under way (no spinner). */
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button type="submit" className="btn btn-primary w-100" disabled={submitting || disabled}>
      {submitting && <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />}
      {children}
    </button>
  );
}
