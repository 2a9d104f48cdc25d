import Badge from 'react-bootstrap/Badge';

/** 'Opened' and 'Enabled', green when true and red when false. */
export function NodeStatusBadges({ opened, enabled }: { opened: boolean; enabled: boolean }) {
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
    </span>
  );
}
