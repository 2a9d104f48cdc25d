import type { Recording } from '@streamcloud/contract';
import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { Link, Navigate, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { PageShell } from '@/components/ui/page-shell';
import { errorStatus, messageOr } from '@/lib/api-error';
import { formatDateTime, formatDuration } from '@/lib/format';
import { useDeleteRecording } from '../api/delete-recording';
import { useStorages } from '../api/get-storages';
import { useStreamRecordings } from '../api/get-stream-recordings';
import { useStopRecording } from '../api/stop-recording';
import { DELETE_RECORDING_QUESTION, RECORDING_ERRORS, RECORDINGS_LOAD_FAILED } from '../utils/messages';
import { recordingActions, splitByAutostart } from '../utils/recording-actions';
import { formatBytes } from '../utils/units';
import { RecordingFormModal } from './recording-form-modal';
import { RecordingInfoModal } from './recording-info-modal';
import { RecordingStateBadge } from './recording-state-badge';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; recording: Recording }
  | { kind: 'info'; id: string }
  | { kind: 'delete'; recording: Recording }
  | null;

interface ItemProps {
  recording: Recording;
  storageName: string | undefined;
  canStop: boolean;
  canDelete: boolean;
  onInfo: () => void;
  onEdit: () => void;
  onStop: () => void;
  onDelete: () => void;
}

function RecordingItem({ recording, storageName, canStop, canDelete, onInfo, onEdit, onStop, onDelete }: ItemProps) {
  const titleId = `recording-${recording.id}`;
  const [latest] = recording.messages;
  return (
    <li className="list-group-item" aria-labelledby={titleId} data-recording-id={recording.id}>
      <div className="d-flex flex-wrap justify-content-between align-items-start gap-2">
        <div style={{ minWidth: 0 }}>
          <div className="d-flex flex-wrap align-items-center gap-2">
            <RecordingStateBadge state={recording.state} />
            {recording.autostart && <Badge bg="secondary">Autostart</Badge>}
            <code id={titleId} className="text-break">
              {recording.fileName}
            </code>
            <span className="text-secondary small">{recording.fileFormat}</span>
          </div>
          <div className="small text-secondary font-monospace">{recording.id}</div>
          <div className="small mt-1 d-flex flex-wrap gap-3">
            <span>Storage: {storageName ?? recording.storageId}</span>
            <span>Duration: {formatDuration(recording.duration)}</span>
            <span>Length: {formatBytes(recording.length)}</span>
            <span>Uploaded: {formatBytes(recording.uploaded)}</span>
            <span>Created: {formatDateTime(recording.createdAt)}</span>
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

/** /streams/recording/{id}: a stream's recordings, autostarting first, re-polled every 5 seconds. */
function RecordingDashboard({ streamId }: { streamId: string }) {
  const recordings = useStreamRecordings(streamId);
  const storages = useStorages();
  const stop = useStopRecording();
  const remove = useDeleteRecording();
  const notify = useNotify();
  const [dialog, setDialog] = useState<Dialog>(null);
  // Stop is offered once per recording in this session (section 4).
  const [stopped, setStopped] = useState<ReadonlySet<string>>(new Set());

  const storageNames = new Map((storages.data ?? []).map((storage) => [storage.id, storage.name]));

  const stopRecording = (id: string) =>
    stop.mutate(id, {
      onSuccess: () => setStopped((current) => new Set(current).add(id)),
      onError: (error) => notify(messageOr(error, RECORDING_ERRORS.stop)),
    });

  const confirmDelete = (id: string) => {
    setDialog(null);
    remove.mutate(id, { onError: (error) => notify(messageOr(error, RECORDING_ERRORS.delete)) });
  };

  const renderGroup = (title: string, items: Recording[]) =>
    items.length > 0 && (
      <section className="mb-4" aria-label={title}>
        <h2 className="h6 text-secondary">{title}</h2>
        <ul className="list-group">
          {items.map((recording) => {
            const actions = recordingActions(recording, {
              stoppedInSession: stopped.has(recording.id),
              stopping: stop.isPending && stop.variables === recording.id,
              deleting: remove.isPending && remove.variables === recording.id,
            });
            return (
              <RecordingItem
                key={recording.id}
                recording={recording}
                storageName={storageNames.get(recording.storageId)}
                canStop={actions.stop}
                canDelete={actions.delete}
                onInfo={() => setDialog({ kind: 'info', id: recording.id })}
                onEdit={() => setDialog({ kind: 'edit', recording })}
                onStop={() => stopRecording(recording.id)}
                onDelete={() => setDialog({ kind: 'delete', recording })}
              />
            );
          })}
        </ul>
      </section>
    );

  const { autostarting, others } = splitByAutostart(recordings.data ?? []);

  return (
    <PageShell
      title="Recordings"
      actions={
        <div className="d-flex flex-wrap gap-2">
          <Link className="btn btn-outline-secondary" to={`/streams/view/${streamId}`}>
            Back to stream
          </Link>
          <Button onClick={() => setDialog({ kind: 'create' })} disabled={recordings.isError}>
            <i className="bi bi-plus-lg me-1" aria-hidden="true" />
            Add recording
          </Button>
        </div>
      }
    >
      <p className="small text-secondary font-monospace">Stream {streamId}</p>
      {recordings.isPending ? (
        <Loading />
      ) : recordings.isError && !recordings.data ? (
        <p className="text-danger">
          {errorStatus(recordings.error) === 404 ? 'This stream does not exist.' : RECORDINGS_LOAD_FAILED}
        </p>
      ) : autostarting.length + others.length === 0 ? (
        <p className="text-secondary">No recordings yet.</p>
      ) : (
        <>
          {renderGroup('Autostarting', autostarting)}
          {renderGroup('Other recordings', others)}
        </>
      )}

      <RecordingFormModal
        show={dialog?.kind === 'create' || dialog?.kind === 'edit'}
        streamId={streamId}
        recording={dialog?.kind === 'edit' ? dialog.recording : undefined}
        onHide={() => setDialog(null)}
      />
      <RecordingInfoModal id={dialog?.kind === 'info' ? dialog.id : null} onHide={() => setDialog(null)} />
      <ConfirmDialog
        show={dialog?.kind === 'delete'}
        message={DELETE_RECORDING_QUESTION}
        onConfirm={() => dialog?.kind === 'delete' && confirmDelete(dialog.recording.id)}
        onCancel={() => setDialog(null)}
      />
    </PageShell>
  );
}

export function RecordingsScreen() {
  const { id } = useParams();
  if (!id) return <Navigate to="/streams" replace />;
  return <RecordingDashboard key={id} streamId={id} />;
}
