import { messageOr } from '@streamcloud/api-client';
import { type IngressEndpoint, streamRoutes } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';
import Modal from 'react-bootstrap/Modal';
import { CopyableValue } from '@/components/ui/copy-button';
import { ModalActions } from '@/components/ui/modal-actions';
import { useNotify } from '@/components/ui/notifications';
import { useRouteMutation } from '@/data/route-mutation';
import { streamKeys } from '@/data/streams/keys';
import { STREAM_ERRORS } from '../utils/messages';

export interface GslbDialogProps {
  show: boolean;
  streamId: string;
  /** The endpoint, when the stream already has one. */
  endpoint: IngressEndpoint | undefined;
  onHide: () => void;
}

/** Global load balancing: provisions the stream's ingest endpoint (POST /gslb/input). */
export function GslbDialog({ show, streamId, endpoint, onHide }: GslbDialogProps) {
  const notify = useNotify();
  // POST /gslb/input: the new endpoint is shown at once, and the stream read again.
  const provision = useRouteMutation(streamRoutes.createIngress, {
    toRequest: (id: string) => ({ body: { streamId: id } }),
    sets: (created) => streamKeys.ingress(created.streamId),
    invalidates: (created) => [streamKeys.detail(created.streamId)],
  });
  const onProvision = () =>
    provision.mutate(streamId, {
      onError: (error) => notify(messageOr(error, STREAM_ERRORS.ingressCreation)),
    });
  return (
    <Modal show={show} onHide={onHide} aria-labelledby="gslb-dialog-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="gslb-dialog-title">
          Global load balancing{' '}
          <Badge bg="warning" text="dark">
            beta
          </Badge>
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {endpoint ? (
          <>
            <p>The stream has a global load-balancing ingest endpoint:</p>
            <CopyableValue value={endpoint.connection.uri} label="Copy ingress endpoint" />
          </>
        ) : (
          <p className="mb-0">
            Provision a global load-balancing ingest endpoint: the stream can then be pushed to one address that leads
            to the nearest media node.
          </p>
        )}
      </Modal.Body>
      <ModalActions
        onCancel={onHide}
        submitLabel="Provision"
        submitDisabled={Boolean(endpoint) || provision.isPending}
        onSubmit={onProvision}
      />
    </Modal>
  );
}
