import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';
import { HeaderCard } from '@/components/ui/header-card';

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
  return (
    <HeaderCard region title={title} actions={actions} className={className}>
      <Card.Body>{children}</Card.Body>
    </HeaderCard>
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
