import type { StreamStatus } from '@streamcloud/contract';
import broadcastIcon from 'bootstrap-icons/icons/broadcast.svg?raw';
import exclamationOctagonFillIcon from 'bootstrap-icons/icons/exclamation-octagon-fill.svg?raw';
import lifePreserverIcon from 'bootstrap-icons/icons/life-preserver.svg?raw';
import pauseFillIcon from 'bootstrap-icons/icons/pause-fill.svg?raw';
import type { ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import Spinner from 'react-bootstrap/Spinner';
import { Icon } from '@/components/ui/icon';
import './streams.css';

interface BadgeLook {
  bg: string;
  /** Classes besides the layout every badge shares. */
  className?: string;
  text?: 'dark';
  icon: ReactNode;
}

const PENDING_SPINNER = (
  <Spinner animation="border" size="sm" aria-hidden="true" style={{ width: '0.7rem', height: '0.7rem' }} />
);

/**
 * Pending blue with a spinner; Idle light with a pause icon; Ingestion green with a pulsing broadcast
 * icon; Error red; Fallback amber.
 */
const LOOKS: Record<StreamStatus, BadgeLook> = {
  Pending: { bg: 'primary', icon: PENDING_SPINNER },
  Idle: { bg: 'light', text: 'dark', className: 'border', icon: <Icon svg={pauseFillIcon} /> },
  Ingestion: { bg: 'success', icon: <Icon svg={broadcastIcon} className="stream-pulse" /> },
  Error: { bg: 'danger', icon: <Icon svg={exclamationOctagonFillIcon} /> },
  Fallback: { bg: '', className: 'stream-badge-fallback', icon: <Icon svg={lifePreserverIcon} /> },
};

export function StreamStatusBadge({ status }: { status: StreamStatus }) {
  const { bg, className, text, icon } = LOOKS[status];
  return (
    <Badge
      bg={bg}
      {...(text ? { text } : {})}
      className={`${className ? `${className} ` : ''}d-inline-flex align-items-center gap-1`}
      data-status={status}
    >
      {icon}
      {status}
    </Badge>
  );
}
