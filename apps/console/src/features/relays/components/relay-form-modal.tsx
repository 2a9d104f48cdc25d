import type { Relay } from '@streamcloud/contract';
import Modal from 'react-bootstrap/Modal';
import { useNotify } from '@/components/ui/notifications';
import { messageOr } from '@/lib/api-error';
import { useCreateRelay } from '../api/create-relay';
import { useUpdateRelay } from '../api/update-relay';
import { RELAY_ERRORS } from '../utils/messages';
import { type RelayFormValues, toBody, toUpdateBody } from '../utils/relay-form-values';
import { RelayForm } from './relay-form';

export interface RelayFormModalProps {
  show: boolean;
  streamId: string;
  /** Edit this relay; absent to create one. */
  relay?: Relay;
  onHide: () => void;
}

/** The relay create/edit form in a modal (closes by its close button, Escape or the backdrop). */
export function RelayFormModal({ show, streamId, relay, onHide }: RelayFormModalProps) {
  const create = useCreateRelay();
  const update = useUpdateRelay();
  const notify = useNotify();

  const save = async (values: RelayFormValues) => {
    try {
      if (relay) await update.mutateAsync({ id: relay.id, body: toUpdateBody(values, relay) });
      else await create.mutateAsync(toBody(values));
      onHide();
    } catch (error) {
      notify(messageOr(error, relay ? RELAY_ERRORS.update : RELAY_ERRORS.creation));
      throw error;
    }
  };

  return (
    <Modal show={show} onHide={onHide} size="lg" aria-labelledby="relay-form-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="relay-form-title">{relay ? 'Edit relay' : 'New relay'}</Modal.Title>
      </Modal.Header>
      {show && <RelayForm streamId={streamId} relay={relay} onSave={save} onCancel={onHide} />}
    </Modal>
  );
}
