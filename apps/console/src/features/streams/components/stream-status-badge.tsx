import type { StreamStatus } from '@streamcloud/contract';
import broadcastIcon from 'bootstrap-icons/icons/broadcast.svg?raw';
import exclamationOctagonFillIcon from 'bootstrap-icons/icons/exclamation-octagon-fill.svg?raw';
import lifePreserverIcon from 'bootstrap-icons/icons/life-preserver.svg?raw';
import pauseFillIcon from 'bootstrap-icons/icons/pause-fill.svg?raw';
import Badge from 'react-bootstrap/Badge';
import Spinner from 'react-bootstrap/Spinner';
import { Icon } from '@/components/ui/icon';
import './streams.css';

/**
 * Pending blue with a spinner; Idle light with a pause icon; Ingestion green with a pulsing broadcast
 * icon; Error red; Fallback amber.
 */
export function StreamStatusBadge({ status }: { status: StreamStatus }) {
  switch (status) {
    case 'Pending':
      return (
        <Badge bg="primary" className="d-inline-flex align-items-center gap-1" data-status={status}>
          <Spinner animation="border" size="sm" aria-hidden="true" style={{ width: '0.7rem', height: '0.7rem' }} />
          Pending
        </Badge>
      );
    case 'Idle':
      return (
        <Badge bg="light" text="dark" className="border d-inline-flex align-items-center gap-1" data-status={status}>
          <Icon svg={pauseFillIcon} />
          Idle
        </Badge>
      );
    case 'Ingestion':
      return (
        <Badge bg="success" className="d-inline-flex align-items-center gap-1" data-status={status}>
          <Icon svg={broadcastIcon} className="stream-pulse" />
          Ingestion
        </Badge>
      );
    case 'Error':
      return (
        <Badge bg="danger" className="d-inline-flex align-items-center gap-1" data-status={status}>
          <Icon svg={exclamationOctagonFillIcon} />
          Error
        </Badge>
      );
    case 'Fallback':
      return (
        <Badge bg="" className="stream-badge-fallback d-inline-flex align-items-center gap-1" data-status={status}>
          <Icon svg={lifePreserverIcon} />
          Fallback
        </Badge>
      );
  }
}
