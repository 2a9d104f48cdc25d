import { describeSelector, STORAGE_TYPE_LABELS } from '@streamcloud/contract';
import type { ReactNode } from 'react';
import Modal from 'react-bootstrap/Modal';
import { Loading } from '@/components/ui/loading';
import { formatDateTime, formatDuration } from '@/lib/format';
import { useRecording } from '../api/get-recording';
import { useStorage } from '../api/get-storage';
import { useStream } from '../api/get-stream';
import { formatBytes } from '../utils/units';
import { RecordingStateBadge } from './recording-state-badge';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="col-sm-4 text-secondary fw-normal">{label}</dt>
      <dd className="col-sm-8 text-break">{children}</dd>
    </>
  );
}

const none = <span className="text-secondary">None</span>;

/** Loads the recording with its stream id, then the stream, then its storage (section 2). */
function RecordingInfo({ id }: { id: string }) {
  const recording = useRecording(id);
  const stream = useStream(recording.data?.streamId);
  const storage = useStorage(stream.data ? recording.data?.storageId : undefined);

  if (recording.isPending) return <Loading />;
  if (recording.isError) return <p className="text-danger mb-0">The recording could not be loaded.</p>;
  const data = recording.data;
  return (
    <dl className="row mb-0">
      <Row label="State">
        <RecordingStateBadge state={data.state} />
        {data.stopRequested && data.state === 'Recording' && <span className="ms-2 small">stopping…</span>}
      </Row>
      <Row label="Recording ID">
        <code>{data.id}</code>
      </Row>
      <Row label="Stream">
        {stream.isPending ? (
          'Loading…'
        ) : stream.isError ? (
          <code>{data.streamId}</code>
        ) : (
          <>
            {stream.data.caption ?? <code>{stream.data.id}</code>}
            <div className="small text-secondary font-monospace">{stream.data.name}</div>
          </>
        )}
      </Row>
      <Row label="File name">
        <code>{data.fileName}</code>
      </Row>
      <Row label="File format">{data.fileFormat}</Row>
      <Row label="Storage">
        {storage.isPending ? (
          'Loading…'
        ) : storage.isError ? (
          <code>{data.storageId}</code>
        ) : (
          <>
            {storage.data.name}
            <div className="small text-secondary">
              {STORAGE_TYPE_LABELS[storage.data.type]}: {storage.data.bucket}
              {storage.data.path ? `/${storage.data.path}` : ''}
            </div>
          </>
        )}
      </Row>
      <Row label="Autostart">{data.autostart ? 'Yes' : 'No'}</Row>
      <Row label="Callback URI">{data.callbackUri ?? none}</Row>
      <Row label="Capture">
        {data.capture.source}
        <ul className="mb-0 ps-3">
          {data.capture.tracks.map((selector, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: selectors have no identity of their own
            <li key={index}>
              {selector.type}: {describeSelector(selector)}
            </li>
          ))}
        </ul>
      </Row>
      <Row label="Duration">{formatDuration(data.duration)}</Row>
      <Row label="Length">{formatBytes(data.length)}</Row>
      <Row label="Uploaded">{formatBytes(data.uploaded)}</Row>
      <Row label="Created">{formatDateTime(data.createdAt)}</Row>
      <Row label="Updated">{formatDateTime(data.updatedAt)}</Row>
      <Row label="Messages">
        {data.messages.length === 0 ? (
          none
        ) : (
          <ul className="list-unstyled mb-0 small">
            {data.messages.map((message, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: messages have no id
              <li key={index}>
                <span className="text-secondary">{formatDateTime(message.at)}</span> {message.text}
              </li>
            ))}
          </ul>
        )}
      </Row>
    </dl>
  );
}

export function RecordingInfoModal({ id, onHide }: { id: string | null; onHide: () => void }) {
  return (
    <Modal show={id !== null} onHide={onHide} size="lg" aria-labelledby="recording-info-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="recording-info-title">Recording</Modal.Title>
      </Modal.Header>
      <Modal.Body>{id && <RecordingInfo id={id} />}</Modal.Body>
    </Modal>
  );
}
