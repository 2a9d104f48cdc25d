import chevronDownIcon from 'bootstrap-icons/icons/chevron-down.svg?raw';
import chevronRightIcon from 'bootstrap-icons/icons/chevron-right.svg?raw';
import { type ReactNode, useId, useState } from 'react';
import Card from 'react-bootstrap/Card';
import Collapse from 'react-bootstrap/Collapse';
import { Icon } from '@/components/ui/icon';

/** A card whose body folds away by its title button; open at first. */
export function CollapsibleCard({
  title,
  actions,
  children,
}: {
  title: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(true);
  const id = useId();
  return (
    <Card as="section" className="mb-3" aria-labelledby={`${id}-title`}>
      <Card.Header className="d-flex flex-wrap align-items-center justify-content-between gap-2">
        <h2 className="h5 mb-0" id={`${id}-title`}>
          <button
            type="button"
            className="btn btn-link p-0 text-reset text-decoration-none fw-semibold"
            aria-expanded={open}
            aria-controls={`${id}-body`}
            onClick={() => setOpen((value) => !value)}
          >
            <Icon svg={open ? chevronDownIcon : chevronRightIcon} className="me-2" />
            {title}
          </button>
        </h2>
        {open && actions}
      </Card.Header>
      <Collapse in={open}>
        <div id={`${id}-body`}>
          <Card.Body>{children}</Card.Body>
        </div>
      </Collapse>
    </Card>
  );
}
