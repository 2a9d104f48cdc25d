import { RELAY_FORMAT_LABELS, type Relay } from '@streamcloud/contract';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { Link, Navigate, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { PageShell } from '@/components/ui/page-shell';
import { errorStatus, messageOr } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { useDeleteRelay } from '../api/delete-relay';
import { useStreamRelays } from '../api/get-stream-relays';
import { useStopRelay } from '../api/stop-relay';
import { DELETE_RELAY_QUESTION, RELAY_ERRORS, RELAYS_LOAD_FAILED } from '../utils/messages';
import { relayActions, splitByAutostart } from '../utils/relay-actions';
import { formatBytes } from '../utils/units';
import { RelayDestination } from './relay-destination';
import { RelayFormModal } from './relay-form-modal';
import { RelayInfoModal } from './relay-info-modal';
import { RelayStateBadge } from './relay-state-badge';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; relay: Relay }
  | { kind: 'info'; id: string }
  | { kind: 'delete'; relay: Relay }
  | null;

interface ItemProps {
  relay: Relay;
  canStop: boolean;
  canDelete: boolean;
  onInfo: () => void;
  onEdit: () => void;
  onStop: () => void;
  onDelete: () => void;
}

function RelayItem({ relay, canStop, canDelete, onInfo, onEdit, onStop, onDelete }: ItemProps) {
  const titleId = `relay-${relay.id}`;
  const [latest] = relay.messages;
  return (
    <li className="list-group-item" aria-labelledby={titleId} data-relay-id={relay.id}>
      <div className="d-flex flex-wrap justify-content-between align-items-start gap-2">
        <div style={{ minWidth: 0 }}>
          <div className="d-flex flex-wrap align-items-center gap-2">
            <RelayStateBadge state={relay.state} />
            {relay.autostart && <Badge bg="secondary">Autostart</Badge>}
            <strong id={titleId}>{RELAY_FORMAT_LABELS[relay.format]}</strong>
            <RelayDestination relay={relay} />
          </div>
          <div className="small text-secondary font-monospace">{relay.id}</div>
          <div className="small mt-1 d-flex flex-wrap gap-3">
            <span>Uploaded: {formatBytes(relay.uploaded)}</span>
            <span>Created: {formatDateTime(relay.createdAt)}</span>
          </div>
          {latest && <div className="small text-secondary mt-1">{latest.text}</div>}
        </div>
        <div className="d-flex flex-wrap gap-1">
          <Button size="sm" variant="outline-secondary" onClick={onInfo}>
            <i className="bi bi-info-circle me-1" aria-hidden="true" />
            Info
          </Button>
          <Button size="sm" variant="outline-primary" onClick={onEdit}>
            <i className="bi bi-pencil me-1" aria-hidden="true" />
            Edit
          </Button>
          <Button size="sm" variant="outline-warning" disabled={!canStop} onClick={onStop}>
            <i className="bi bi-stop-circle me-1" aria-hidden="true" />
            Stop
          </Button>
          <Button size="sm" variant="outline-danger" disabled={!canDelete} onClick={onDelete}>
            <i className="bi bi-trash me-1" aria-hidden="true" />
            Delete
          </Button>
        </div>
      </div>
    </li>
  );
}

/** /streams/relay/{id}: a stream's relays, autostarting first, re-polled every 5 seconds. */
function RelayDashboard({ streamId }: { streamId: string }) {
  const relays = useStreamRelays(streamId);
  const stop = useStopRelay();
  const remove = useDeleteRelay();
  const notify = useNotify();
  const [dialog, setDialog] = useState<Dialog>(null);
  // Stop is offered once per relay in this session (section 4).
  const [stopped, setStopped] = useState<ReadonlySet<string>>(new Set());

  const stopRelay = (id: string) =>
    stop.mutate(id, {
      onSuccess: () => setStopped((current) => new Set(current).add(id)),
      onError: (error) => notify(messageOr(error, RELAY_ERRORS.stop)),
    });

  const confirmDelete = (id: string) => {
    setDialog(null);
    remove.mutate(id, { onError: (error) => notify(messageOr(error, RELAY_ERRORS.delete)) });
  };

  const renderGroup = (title: string, items: Relay[]) =>
    items.length > 0 && (
      <section className="mb-4" aria-label={title}>
        <h2 className="h6 text-secondary">{title}</h2>
        <ul className="list-group">
          {items.map((relay) => {
            const actions = relayActions(relay, {
              stoppedInSession: stopped.has(relay.id),
              stopping: stop.isPending && stop.variables === relay.id,
              deleting: remove.isPending && remove.variables === relay.id,
            });
            return (
              <RelayItem
                key={relay.id}
                relay={relay}
                canStop={actions.stop}
                canDelete={actions.delete}
                onInfo={() => setDialog({ kind: 'info', id: relay.id })}
                onEdit={() => setDialog({ kind: 'edit', relay })}
                onStop={() => stopRelay(relay.id)}
                onDelete={() => setDialog({ kind: 'delete', relay })}
              />
            );
          })}
        </ul>
      </section>
    );

  const { autostarting, others } = splitByAutostart(relays.data ?? []);

  return (
    <PageShell
      title="Relays"
      actions={
        <div className="d-flex flex-wrap gap-2">
          <Link className="btn btn-outline-secondary" to={`/streams/view/${streamId}`}>
            Back to stream
          </Link>
          <Button onClick={() => setDialog({ kind: 'create' })} disabled={relays.isError}>
            <i className="bi bi-plus-lg me-1" aria-hidden="true" />
            Add relay
          </Button>
        </div>
      }
    >
      <p className="small text-secondary font-monospace">Stream {streamId}</p>
      {relays.isPending ? (
        <Loading />
      ) : relays.isError && !relays.data ? (
        <p className="text-danger">
          {errorStatus(relays.error) === 404 ? 'This stream does not exist.' : RELAYS_LOAD_FAILED}
        </p>
      ) : autostarting.length + others.length === 0 ? (
        <p className="text-secondary">No relays yet.</p>
      ) : (
        <>
          {renderGroup('Autostarting', autostarting)}
          {renderGroup('Other relays', others)}
        </>
      )}

      <RelayFormModal
        show={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        streamId={streamId}
        relay={dialog?.kind === 'edit' ? dialog.relay : undefined}
        onHide={() => setDialog(null)}
      />
      <RelayInfoModal id={dialog?.kind === 'info' ? dialog.id : null} onHide={() => setDialog(null)} />
      <ConfirmDialog
        show={dialog?.kind === 'delete'}
        message={DELETE_RELAY_QUESTION}
        onConfirm={() => dialog?.kind === 'delete' && confirmDelete(dialog.relay.id)}
        onCancel={() => setDialog(null)}
      />
    </PageShell>
  );
}

export function RelaysScreen() {
  const { id } = useParams();
  if (!id) return <Navigate to="/streams" replace />;
  return <RelayDashboard key={id} streamId={id} />;
}
