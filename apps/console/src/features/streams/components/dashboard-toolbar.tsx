import cameraIcon from 'bootstrap-icons/icons/camera.svg?raw';
import gearIcon from 'bootstrap-icons/icons/gear.svg?raw';
import globeIcon from 'bootstrap-icons/icons/globe.svg?raw';
import lifePreserverIcon from 'bootstrap-icons/icons/life-preserver.svg?raw';
import pencilSquareIcon from 'bootstrap-icons/icons/pencil-square.svg?raw';
import receiptIcon from 'bootstrap-icons/icons/receipt.svg?raw';
import recordCircleIcon from 'bootstrap-icons/icons/record-circle.svg?raw';
import shareIcon from 'bootstrap-icons/icons/share.svg?raw';
import slidersIcon from 'bootstrap-icons/icons/sliders.svg?raw';
import stopFillIcon from 'bootstrap-icons/icons/stop-fill.svg?raw';
import trashIcon from 'bootstrap-icons/icons/trash.svg?raw';
import type { ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Dropdown from 'react-bootstrap/Dropdown';
import { Link } from 'react-router';
import { Icon } from '@/components/ui/icon';
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
      <Icon svg={icon} className="me-1" />
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
      <Icon svg={icon} className="me-1" />
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
      <ActionLink to={`/billing/stream/${streamId}`} enabled={actions.billing} icon={receiptIcon}>
        Billing
      </ActionLink>
      <ActionButton enabled={actions.stop && !stopping} icon={stopFillIcon} onClick={onStop}>
        Stop
      </ActionButton>
      <ActionLink to={`/streams/transcode/${streamId}`} enabled={actions.transcoding} icon={slidersIcon}>
        Transcoding
      </ActionLink>
      <ActionButton enabled={actions.snapshots} icon={cameraIcon} onClick={onSnapshots}>
        Snapshots
      </ActionButton>
      <ActionLink to={`/streams/recording/${streamId}`} enabled={actions.recordings} icon={recordCircleIcon}>
        Recordings
      </ActionLink>
      <ActionLink to={`/streams/relay/${streamId}`} enabled={actions.relays} icon={shareIcon}>
        Relays
      </ActionLink>
      <Button variant="outline-secondary" size="sm" disabled={!actions.gslb} onClick={onGslb}>
        <Icon svg={globeIcon} className="me-1" />
        GSLB{' '}
        <Badge bg="warning" text="dark">
          beta
        </Badge>
      </Button>
      <ActionLink to={`/streams/fallback/${streamId}`} enabled={actions.fallback} icon={lifePreserverIcon}>
        Fallback
      </ActionLink>
      <ActionButton enabled={actions.update} icon={pencilSquareIcon} onClick={onUpdate}>
        Update
      </ActionButton>
      <ActionButton enabled={actions.delete} icon={trashIcon} onClick={onDelete} variant="outline-danger">
        Delete
      </ActionButton>
      <Dropdown align="end">
        <Dropdown.Toggle variant="outline-secondary" size="sm" id="stream-settings-menu" aria-label="Settings">
          <Icon svg={gearIcon} />
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
