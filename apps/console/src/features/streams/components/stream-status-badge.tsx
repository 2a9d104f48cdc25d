import type { StreamStatus } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';
import Spinner from 'react-bootstrap/Spinner';
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
          <i className="bi bi-pause-fill" aria-hidden="true" />
          Idle
        </Badge>
      );
    case 'Ingestion':
      return (
        <Badge bg="success" className="d-inline-flex align-items-center gap-1" data-status={status}>
          <i className="bi bi-broadcast stream-pulse" aria-hidden="true" />
          Ingestion
        </Badge>
      );
    case 'Error':
      return (
        <Badge bg="danger" className="d-inline-flex align-items-center gap-1" data-status={status}>
          <i className="bi bi-exclamation-octagon-fill" aria-hidden="true" />
          Error
        </Badge>
      );
    case 'Fallback':
      return (
        <Badge bg="" className="stream-badge-fallback d-inline-flex align-items-center gap-1" data-status={status}>
          <i className="bi bi-life-preserver" aria-hidden="true" />
          Fallback
        </Badge>
      );
  }
}
