import type { RecordingState } from '@streamcloud/contract';
import checkCircleIcon from 'bootstrap-icons/icons/check-circle.svg?raw';
import cloudUploadIcon from 'bootstrap-icons/icons/cloud-upload.svg?raw';
import exclamationTriangleIcon from 'bootstrap-icons/icons/exclamation-triangle.svg?raw';
import recordCircleIcon from 'bootstrap-icons/icons/record-circle.svg?raw';
import Badge from 'react-bootstrap/Badge';
import { Icon } from '@/components/ui/icon';

const VARIANT: Record<RecordingState, string> = {
  Recording: 'danger',
  Uploading: 'info',
  Completed: 'success',
  Error: 'warning',
};

const ICON: Record<RecordingState, string> = {
  Recording: recordCircleIcon,
  Uploading: cloudUploadIcon,
  Completed: checkCircleIcon,
  Error: exclamationTriangleIcon,
};

export function RecordingStateBadge({ state }: { state: RecordingState }) {
  return (
    <Badge bg={VARIANT[state]} text={state === 'Error' ? 'dark' : undefined}>
      <Icon svg={ICON[state]} className="me-1" />
      {state}
    </Badge>
  );
}
