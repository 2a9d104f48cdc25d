import type { StreamInputSummary } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';
import { isPrivateAccess } from '../utils/stream-connection';
import { accessLabel, accessTooltip, OUTPUT_MODE_LABELS } from '../utils/stream-list';

/** Access mode and processing in one badge; its tooltip explains the access mode. */
export function StreamAccessBadge({ stream }: { stream: Pick<StreamInputSummary, 'access' | 'outputMode'> }) {
  const locked = isPrivateAccess(stream.access);
  return (
    <Badge bg="secondary" className="fw-normal" title={accessTooltip(stream.access)}>
      <i className={`bi ${locked ? 'bi-lock-fill' : 'bi-unlock'} me-1`} aria-hidden="true" />
      {accessLabel(stream.access)} · {OUTPUT_MODE_LABELS[stream.outputMode] ?? stream.outputMode}
    </Badge>
  );
}
