import type { RelayState } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';

const VARIANT: Record<RelayState, string> = { Relaying: 'success', Completed: 'secondary', Error: 'danger' };
const ICON: Record<RelayState, string> = {
  Relaying: 'bi-broadcast',
  Completed: 'bi-check-circle',
  Error: 'bi-exclamation-triangle',
};

export function RelayStateBadge({ state }: { state: RelayState }) {
  return (
    <Badge bg={VARIANT[state]}>
      <i className={`bi ${ICON[state]} me-1`} aria-hidden="true" />
      {state}
    </Badge>
  );
}
