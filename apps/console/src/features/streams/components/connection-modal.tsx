import type { StreamInput } from '@streamcloud/contract';
import Modal from 'react-bootstrap/Modal';
import { Link } from 'react-router';
import { CopyableValue } from '@/components/ui/copy-button';
import { inputEndpoint, internodeNote, isPrivateAccess } from '../utils/stream-connection';
import { streamViewPath } from './stream-item';

/** The media nodes take RTSP pushes with RTP interleaved on the RTSP connection only (docs/decisions.md). */
export const RTSP_TCP_ONLY = 'RTSP pushes are taken over TCP only (RTP interleaved): set the encoder to RTSP over TCP.';

export const NO_ENDPOINT_YET =
  'The stream is waiting for a media node; its endpoint appears as soon as it is assigned to one.';

/** Where to push the stream: the endpoint and, for private access, the token; each with a copy button. */
export function ConnectionModal({ stream, onHide }: { stream: StreamInput | null; onHide: () => void }) {
  const endpoint = stream ? inputEndpoint(stream.connection) : null;
  return (
    <Modal show={stream !== null} onHide={onHide} aria-labelledby="connection-modal-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="connection-modal-title">Connection</Modal.Title>
      </Modal.Header>
      {stream && (
        <Modal.Body>
          <h3 className="h6">Endpoint</h3>
          {endpoint ? (
            <CopyableValue value={endpoint} label="Copy endpoint" />
          ) : (
            <p className="text-secondary">{NO_ENDPOINT_YET}</p>
          )}
          {stream.format === 'RTSP' && <p className="small text-secondary mt-2 mb-0">{RTSP_TCP_ONLY}</p>}
          {stream.format === 'Internode' && <p className="small text-secondary mt-2 mb-0">{internodeNote(stream)}</p>}
          {isPrivateAccess(stream.access) && stream.accessToken && (
            <>
              <h3 className="h6 mt-3">Access token</h3>
              <CopyableValue value={stream.accessToken} label="Copy token" />
            </>
          )}
        </Modal.Body>
      )}
      <Modal.Footer>
        {stream && (
          <Link className="btn btn-primary" to={streamViewPath(stream.id)} onClick={onHide}>
            View Stream
          </Link>
        )}
      </Modal.Footer>
    </Modal>
  );
}
