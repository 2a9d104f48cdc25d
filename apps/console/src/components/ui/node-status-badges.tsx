import type { Node } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';

/** Whether the node reports: a node that never did, or went silent, is not shown as healthy. */
const REPORTING = {
  Reporting: { text: 'Reporting', bg: 'success', title: 'The node reports to the control plane' },
  Silent: {
    text: 'Offline',
    bg: 'danger',
    title: 'No report for NODE_SILENCE_SECONDS: its live streams went to Error',
  },
  NeverReported: {
    text: 'Never reported',
    bg: 'danger',
    title: 'Registered, but no report yet: the node is not running, or cannot reach the control plane',
  },
} as const;

/**
 * 'Opened' and 'Enabled', green when true and red when false, whether the node reports, and how many problems
 * its health shows (none: no badge).
 */
export function NodeStatusBadges({ node }: { node: Pick<Node, 'opened' | 'enabled' | 'reporting' | 'load'> }) {
  const { opened, enabled, reporting } = node;
  const problems = node.load?.health?.problems ?? [];
  const report = REPORTING[reporting];
  return (
    <span className="d-inline-flex gap-1">
      <Badge
        bg={opened ? 'success' : 'danger'}
        title={opened ? 'Open for new connections' : 'Closed to new connections'}
      >
        Opened
      </Badge>
      <Badge bg={enabled ? 'success' : 'danger'} title={enabled ? 'Available for use' : 'Not available for use'}>
        Enabled
      </Badge>
      <Badge bg={report.bg} title={report.title}>
        {report.text}
      </Badge>
      {problems.length > 0 && (
        <Badge bg="warning" text="dark" title={problems.join('\n')}>
          {problems.length === 1 ? '1 problem' : `${problems.length} problems`}
        </Badge>
      )}
    </span>
  );
}
