import type { ReactNode } from 'react';

/** One label and value of an info view's description list. */
export function InfoRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="col-sm-4 text-secondary fw-normal">{label}</dt>
      <dd className="col-sm-8 text-break">{children}</dd>
    </>
  );
}

export const NONE = <span className="text-secondary">None</span>;

/** The value as text, or None when it is not set (null or empty). */
export const orNone = (value: string | number | null) => (value === null || value === '' ? NONE : String(value));
