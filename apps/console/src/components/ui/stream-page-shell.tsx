import arrowLeftIcon from 'bootstrap-icons/icons/arrow-left.svg?raw';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Icon } from './icon';
import { PageShell } from './page-shell';

export interface StreamPageShellProps {
  title: string;
  streamId: string;
  /** The stream's caption when known, shown before its id. */
  caption?: string | null;
  /** More actions after "Back to stream". */
  actions?: ReactNode;
  children?: ReactNode;
}

/** A page about one stream (its metrics, billing, recordings…): the way back to its dashboard and which stream. */
export function StreamPageShell({ title, streamId, caption, actions, children }: StreamPageShellProps) {
  return (
    <PageShell
      title={title}
      actions={
        <div className="d-flex flex-wrap gap-2">
          <Link className="btn btn-outline-secondary" to={`/streams/view/${streamId}`}>
            <Icon svg={arrowLeftIcon} className="me-1" />
            Back to stream
          </Link>
          {actions}
        </div>
      }
    >
      <p className="text-secondary text-break">
        {caption ? `${caption} · ` : ''}
        {streamId}
      </p>
      {children}
    </PageShell>
  );
}
