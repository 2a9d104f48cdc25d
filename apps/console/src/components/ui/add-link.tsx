import plusLgIcon from 'bootstrap-icons/icons/plus-lg.svg?raw';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Icon } from './icon';

/** A list page's primary action: a link, styled as a button, to the page that adds one more. */
export function AddLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link className="btn btn-primary" to={to}>
      <Icon svg={plusLgIcon} className="me-1" />
      {children}
    </Link>
  );
}
