import type { RecordingState } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';

const VARIANT: Record<RecordingState, string> = {
  Recording: 'danger',
  Uploading: 'info',
  Completed: 'success',
  Error: 'warning',
};

const ICON: Record<RecordingState, string> = {
  Recording: 'bi-record-circle',
  Uploading: 'bi-cloud-upload',
  Completed: 'bi-check-circle',
  Error: 'bi-exclamation-triangle',
};

export function RecordingStateBadge({ state }: { state: RecordingState }) {
  return (
    <Badge bg={VARIANT[state]} text={state === 'Error' ? 'dark' : undefined}>
      <i className={`bi ${ICON[state]} me-1`} aria-hidden="true" />
      {state}
    </Badge>
  );
}
