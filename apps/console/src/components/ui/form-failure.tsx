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
