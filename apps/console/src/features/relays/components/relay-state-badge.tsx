import type { RelayState } from '@streamcloud/contract';
import broadcastIcon from 'bootstrap-icons/icons/broadcast.svg?raw';
import checkCircleIcon from 'bootstrap-icons/icons/check-circle.svg?raw';
import exclamationTriangleIcon from 'bootstrap-icons/icons/exclamation-triangle.svg?raw';
import Badge from 'react-bootstrap/Badge';
import { Icon } from '@/components/ui/icon';

const VARIANT: Record<RelayState, string> = { Relaying: 'success', Completed: 'secondary', Error: 'danger' };
const ICON: Record<RelayState, string> = {
  Relaying: broadcastIcon,
  Completed: checkCircleIcon,
  Error: exclamationTriangleIcon,
};

export function RelayStateBadge({ state }: { state: RelayState }) {
  return (
    <Badge bg={VARIANT[state]}>
      <Icon svg={ICON[state]} className="me-1" />
      {state}
    </Badge>
  );
}
