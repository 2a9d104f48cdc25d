import type { ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import { Link } from 'react-router';
import type { DashboardActions } from '../utils/dashboard-actions';

export interface DashboardToolbarProps {
  streamId: string;
  actions: DashboardActions;
  stopping: boolean;
  onStop: () => void;
  onSnapshots: () => void;
  onGslb: () => void;
  onUpdate: () => void;
  onDelete: () => void;
}

const BUTTON = 'btn btn-outline-secondary btn-sm';

/** A link styled as a button; a disabled one is announced as such and goes nowhere. */
function ActionLink({
  to,
  enabled,
  icon,
  children,
}: {
  to: string;
  enabled: boolean;
  icon: string;
  children: ReactNode;
}) {
  const content = (
    <>
      <i className={`bi ${icon} me-1`} aria-hidden="true" />
      {children}
    </>
  );
  if (!enabled) {
    return (
      // biome-ignore lint/a11y/useValidAnchor: a disabled link keeps its role and says it is disabled
      <a role="link" aria-disabled="true" className={`${BUTTON} disabled`} tabIndex={-1}>
        {content}
      </a>
    );
  }
  return (
    <Link to={to} className={BUTTON}>
      {content}
    </Link>
  );
}

function ActionButton({
  enabled,
  icon,
  onClick,
  variant = 'outline-secondary',
  children,
}: {
  enabled: boolean;
  icon: string;
  onClick: () => void;
  variant?: string;
  children: ReactNode;
}) {
  return (
    <Button variant={variant} size="sm" disabled={!enabled} onClick={onClick}>
      <i className={`bi ${icon} me-1`} aria-hidden="true" />
      {children}
    </Button>
  );
}

/** Billing, Stop, Transcoding, Snapshots, Recordings, Relays, GSLB, Fallback, Update, Delete; and a settings menu. */
export function DashboardToolbar({
  streamId,
  actions,
  stopping,
  onStop,
  onSnapshots,
  onGslb,
  onUpdate,
  onDelete,
}: DashboardToolbarProps) {
  return (
    <div role="toolbar" aria-label="Stream actions" className="d-flex flex-wrap gap-2 align-items-center">
      <ActionLink to={`/billing/stream/${streamId}`} enabled={actions.billing} icon="bi-receipt">
        Billing
      </ActionLink>
      <ActionButton enabled={actions.stop && !stopping} icon="bi-stop-fill" onClick={onStop}>
        Stop
      </ActionButton>
      <ActionLink to={`/streams/transcode/${streamId}`} enabled={actions.transcoding} icon="bi-sliders">
        Transcoding
      </ActionLink>
      <ActionButton enabled={actions.snapshots} icon="bi-camera" onClick={onSnapshots}>
        Snapshots
      </ActionButton>
      <ActionLink to={`/streams/recording/${streamId}`} enabled={actions.recordings} icon="bi-record-circle">
        Recordings
      </ActionLink>
      <ActionLink to={`/streams/relay/${streamId}`} enabled={actions.relays} icon="bi-share">
        Relays
      </ActionLink>
      <Button variant="outline-secondary" size="sm" disabled={!actions.gslb} onClick={onGslb}>
        <i className="bi bi-globe me-1" aria-hidden="true" />
        GSLB{' '}
        <Badge bg="warning" text="dark">
          beta
        </Badge>
      </Button>
      <ActionLink to={`/streams/fallback/${streamId}`} enabled={actions.fallback} icon="bi-life-preserver">
        Fallback
      </ActionLink>
      <ActionButton enabled={actions.update} icon="bi-pencil-square" onClick={onUpdate}>
        Update
      </ActionButton>
      <ActionButton enabled={actions.delete} icon="bi-trash" onClick={onDelete} variant="outline-danger">
        Delete
      </ActionButton>
      <Dropdown align="end">
        <Dropdown.Toggle variant="outline-secondary" size="sm" id="stream-settings-menu" aria-label="Settings">
          <i className="bi bi-gear" aria-hidden="true" />
        </Dropdown.Toggle>
        <Dropdown.Menu>
          <Dropdown.Item as={Link} to={`/streams/metrics/${streamId}`} disabled={!actions.metrics}>
            Metrics
          </Dropdown.Item>
          <Dropdown.Item as={Link} to={`/streams/fallback/${streamId}`} disabled={!actions.fallback}>
            Fallbacks
          </Dropdown.Item>
        </Dropdown.Menu>
      </Dropdown>
    </div>
  );
}
