import type { StreamInputSummary } from '@streamcloud/contract';
import lockFillIcon from 'bootstrap-icons/icons/lock-fill.svg?raw';
import unlockIcon from 'bootstrap-icons/icons/unlock.svg?raw';
import Badge from 'react-bootstrap/Badge';
import { Icon } from '@/components/ui/icon';
import { isPrivateAccess } from '../utils/stream-connection';
import { accessLabel, accessTooltip, OUTPUT_MODE_LABELS } from '../utils/stream-list';

/** Access mode and processing in one badge; its tooltip explains the access mode. */
export function StreamAccessBadge({ stream }: { stream: Pick<StreamInputSummary, 'access' | 'outputMode'> }) {
  const locked = isPrivateAccess(stream.access);
  return (
    <Badge bg="secondary" className="fw-normal" title={accessTooltip(stream.access)}>
      <Icon svg={locked ? lockFillIcon : unlockIcon} className="me-1" />
      {accessLabel(stream.access)} · {OUTPUT_MODE_LABELS[stream.outputMode] ?? stream.outputMode}
    </Badge>
  );
}
