import type { ComponentProps, ReactNode } from 'react';
import Card from 'react-bootstrap/Card';

export type TitledCardProps = Omit<ComponentProps<typeof Card>, 'title'> & { title: ReactNode };

/** A card of a page, headed by its title (a second-level heading). */
export function TitledCard({ title, className = 'mb-3', children, ...card }: TitledCardProps) {
  return (
    <Card className={className} {...card}>
      <Card.Body>
        <Card.Title as="h2" className="h5">
          {title}
        </Card.Title>
        {children}
      </Card.Body>
    </Card>
  );
}
