import type { ReactNode } from 'react';
import Card from 'react-bootstrap/Card';

export interface HeaderCardProps {
  /** The heading's id, for tables and lists inside that it names. */
  titleId: string;
  title: ReactNode;
  /** Buttons or menus at the header's end. */
  actions?: ReactNode;
  /** The card's body or a flush list. */
  children?: ReactNode;
}

/** A part of a page as a card whose header holds its heading and its actions. */
export function HeaderCard({ titleId, title, actions, children }: HeaderCardProps) {
  return (
    <Card className="mb-3" as="section">
      <Card.Header className="d-flex align-items-center justify-content-between">
        <h2 id={titleId} className="h6 mb-0">
          {title}
        </h2>
        {actions}
      </Card.Header>
      {children}
    </Card>
  );
}
