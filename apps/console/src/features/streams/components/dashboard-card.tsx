import { type ReactNode, useId } from 'react';
import Card from 'react-bootstrap/Card';

/** A titled card that is also a named region of the page. */
export function DashboardCard({
  title,
  actions,
  children,
  className = '',
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const id = useId();
  return (
    <Card as="section" aria-labelledby={id} className={`mb-3 ${className}`}>
      <Card.Header className="d-flex justify-content-between align-items-center gap-2">
        <h2 id={id} className="h6 mb-0">
          {title}
        </h2>
        {actions}
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card>
  );
}

/** A label and its value in a card's list. */
export function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="mb-2">
      <dt className="small text-secondary fw-normal">{label}</dt>
      <dd className="mb-0 text-break">{children}</dd>
    </div>
  );
}

export const NONE = <span className="text-secondary">None</span>;
