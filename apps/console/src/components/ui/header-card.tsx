import { type ReactNode, useId } from 'react';
import Card from 'react-bootstrap/Card';

export interface HeaderCardProps {
  /** The heading's id, for tables and lists inside that it names; one is made when not given. */
  titleId?: string;
  /** Whether the card is a named region of the page (a landmark), named by its heading. */
  region?: boolean;
  className?: string;
  title: ReactNode;
  /** Buttons or menus at the header's end. */
  actions?: ReactNode;
  /** The card's body or a flush list. */
  children?: ReactNode;
}

/** A part of a page as a card whose header holds its heading and its actions. */
export function HeaderCard({ titleId, region = false, className = '', title, actions, children }: HeaderCardProps) {
  const madeId = useId();
  const headingId = titleId ?? madeId;
  return (
    <Card className={`mb-3 ${className}`.trim()} as="section" aria-labelledby={region ? headingId : undefined}>
      <Card.Header className="d-flex align-items-center justify-content-between gap-2">
        <h2 id={headingId} className="h6 mb-0">
          {title}
        </h2>
        {actions}
      </Card.Header>
      {children}
    </Card>
  );
}
