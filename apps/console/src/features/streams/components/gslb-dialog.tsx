import { messageOr } from '@streamcloud/api-client';
import type { IngressEndpoint } from '@streamcloud/contract';
import Badge from 'react-bootstrap/Badge';
import Modal from 'react-bootstrap/Modal';
import { CopyableValue } from '@/components/ui/copy-button';
import { ModalActions } from '@/components/ui/modal-actions';
import { useNotify } from '@/components/ui/notifications';
import { useCreateIngress } from '../api/create-ingress';
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
  const provision = useCreateIngress();
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
