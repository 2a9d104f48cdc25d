import type { NodeGroupAssignment } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';
import { ASSIGNMENT_BADGES } from '../utils/format';

export function AssignmentBadge({ assignment }: { assignment: NodeGroupAssignment }) {
  return <Badge bg={ASSIGNMENT_BADGES[assignment]}>{assignment}</Badge>;
}
