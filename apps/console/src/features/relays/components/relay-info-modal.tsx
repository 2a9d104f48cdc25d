import { describeSelector, RELAY_FORMAT_LABELS } from '@streamcloud/contract';
import type { ReactNode } from 'react';
import Modal from 'react-bootstrap/Modal';
import { Loading } from '@/components/ui/loading';
import { formatDateTime } from '@/lib/format';
import { useRelay } from '../api/get-relay';
import { useStream } from '../api/get-stream';
import { MASKED_KEY } from '../utils/messages';
import { formatBytes } from '../utils/units';
import { RelayStateBadge } from './relay-state-badge';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="col-sm-4 text-secondary fw-normal">{label}</dt>
      <dd className="col-sm-8 text-break">{children}</dd>
    </>
  );
}

const none = <span className="text-secondary">None</span>;
const orNone = (value: string | number | null) => (value === null || value === '' ? none : String(value));

/** Loads the relay, then its stream. */
function RelayInfo({ id }: { id: string }) {
  const relay = useRelay(id);
  const stream = useStream(relay.data?.streamId);
  if (relay.isPending) return <Loading />;
  if (relay.isError) return <p className="text-danger mb-0">The relay could not be loaded.</p>;
  const data = relay.data;
  return (
    <dl className="row mb-0">
      <Row label="State">
        <RelayStateBadge state={data.state} />
        {data.stopRequested && data.state === 'Relaying' && <span className="ms-2 small">stopping…</span>}
      </Row>
      <Row label="Relay ID">
        <code>{data.id}</code>
      </Row>
      <Row label="Stream">
        {stream.data ? (
          <>
            {stream.data.caption ?? <code>{stream.data.id}</code>}
            <div className="small text-secondary font-monospace">{stream.data.name}</div>
          </>
        ) : (
          <code>{data.streamId}</code>
        )}
      </Row>
      <Row label="Format">{RELAY_FORMAT_LABELS[data.format]}</Row>
      {data.format === 'RTMP' && (
        <>
          <Row label="Server">
            <code>{data.output.server}</code>
          </Row>
          <Row label="Stream key">{data.output.keySet ? MASKED_KEY : none}</Row>
        </>
      )}
      {data.format === 'CMAF' && (
        <>
          <Row label="Endpoint">
            <code>{data.output.endpoint}</code>
          </Row>
          <Row label="Unified Streaming Platform">{data.output.unifiedStreamingPlatform ? 'Yes' : 'No'}</Row>
          <Row label="Event ID">{orNone(data.output.eventID)}</Row>
          <Row label="Video timescale">{orNone(data.output.videoTimescale)}</Row>
          <Row label="Audio timescale">{orNone(data.output.audioTimescale)}</Row>
          <Row label="Meta timescale">{orNone(data.output.metaTimescale)}</Row>
        </>
      )}
      {data.format === 'UDPTS' && (
        <>
          <Row label="IP address">{data.output.ipAddress}</Row>
          <Row label="Port">{data.output.port}</Row>
        </>
      )}
      <Row label="Autostart">{data.autostart ? 'Yes' : 'No'}</Row>
      <Row label="Callback URI">{orNone(data.callbackUri)}</Row>
      <Row label="Capture">
        {data.capture.source}:{' '}
        {data.capture.tracks.map((selector) => `${selector.type} ${describeSelector(selector)}`).join('; ')}
      </Row>
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

export function RelayInfoModal({ id, onHide }: { id: string | null; onHide: () => void }) {
  return (
    <Modal show={id !== null} onHide={onHide} size="lg" aria-labelledby="relay-info-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="relay-info-title">Relay</Modal.Title>
      </Modal.Header>
      <Modal.Body>{id && <RelayInfo id={id} />}</Modal.Body>
    </Modal>
  );
}
