import { memo } from 'react';
import Badge from 'react-bootstrap/Badge';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import type { ListedStream } from '../utils/stream-list';
import { StreamAccessBadge } from './stream-access-badge';
import { StreamStatusBadge } from './stream-status-badge';

export function streamViewPath(id: string): string {
  return `/streams/view/${id}`;
}

/** The caption with the id as a smaller line, or just the id when there is no caption. */
function StreamTitle({ stream, isNew }: ListedStream) {
  return (
    <div className="text-truncate">
      <span className="fw-semibold">{stream.caption || <span className="font-monospace">{stream.id}</span>}</span>
      {isNew && (
        <Badge bg="info" text="dark" className="ms-2">
          new
        </Badge>
      )}
      {stream.caption && <div className="small text-secondary font-monospace text-truncate">{stream.id}</div>}
    </div>
  );
}

/**
 * Whether a row or card would look the same: the list makes new items on every keystroke, but a stream
 * still shown is the same object, so the rows that stay are not rendered again.
 */
function sameItem(previous: { item: ListedStream }, next: { item: ListedStream }): boolean {
  return previous.item.stream === next.item.stream && previous.item.isNew === next.item.isNew;
}

/** A row of the list view. */
export const StreamRow = memo(function StreamRow({ item }: { item: ListedStream }) {
  const { stream } = item;
  return (
    <Link
      to={streamViewPath(stream.id)}
      className="stream-row stream-row-link d-flex align-items-center gap-3 px-3 border-bottom"
      data-stream-id={stream.id}
    >
      <div style={{ width: '7rem' }} className="flex-shrink-0">
        <StreamStatusBadge status={stream.status} />
      </div>
      <div className="flex-grow-1 min-w-0" style={{ minWidth: 0 }}>
        <StreamTitle {...item} />
      </div>
      <div className="flex-shrink-0 text-secondary" style={{ width: '6rem' }}>
        {stream.format}
      </div>
      <div className="flex-shrink-0 d-none d-md-block">
        <StreamAccessBadge stream={stream} />
      </div>
    </Link>
  );
}, sameItem);

/** A card of the grid view: the same content as a row. */
export const StreamCard = memo(function StreamCard({ item }: { item: ListedStream }) {
  const { stream } = item;
  return (
    <Link to={streamViewPath(stream.id)} className="stream-card-link d-block h-100" data-stream-id={stream.id}>
      <Card className="stream-card">
        <Card.Body className="d-flex flex-column gap-2" style={{ minWidth: 0 }}>
          <div className="d-flex justify-content-between align-items-center">
            <StreamStatusBadge status={stream.status} />
            <span className="text-secondary small">{stream.format}</span>
          </div>
          <StreamTitle {...item} />
          <div className="mt-auto">
            <StreamAccessBadge stream={stream} />
          </div>
        </Card.Body>
      </Card>
    </Link>
  );
}, sameItem);
