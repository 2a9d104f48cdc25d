import cameraIcon from 'bootstrap-icons/icons/camera.svg?raw';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Icon } from '@/components/ui/icon';
import { SnapshotSettingsModal } from './snapshot-settings-modal';

/** The dashboard's Snapshots action: a button that opens the snapshot settings (disabled in Error or Ingestion). */
export function SnapshotSettingsButton({ streamId, disabled }: { streamId: string; disabled: boolean }) {
  const [show, setShow] = useState(false);
  return (
    <>
      <Button variant="outline-secondary" disabled={disabled} onClick={() => setShow(true)}>
        <Icon svg={cameraIcon} className="me-1" />
        Snapshots
      </Button>
      <SnapshotSettingsModal streamId={streamId} show={show} onHide={() => setShow(false)} />
    </>
  );
}
