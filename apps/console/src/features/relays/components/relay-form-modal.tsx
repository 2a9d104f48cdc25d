import type { Relay } from '@streamcloud/contract';
import { JobModal } from '@/components/stream-jobs/job-modal';
import { useSaveAndClose } from '@/components/stream-jobs/use-save-and-close';
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
  const save = useSaveAndClose(
    (values: RelayFormValues) =>
      relay
        ? update.mutateAsync({ id: relay.id, body: toUpdateBody(values, relay) })
        : create.mutateAsync(toBody(values)),
    relay ? RELAY_ERRORS.update : RELAY_ERRORS.creation,
    onHide,
  );

  return (
    <JobModal show={show} onHide={onHide} titleId="relay-form-title" title={relay ? 'Edit relay' : 'New relay'}>
      {show && <RelayForm streamId={streamId} job={relay} onSave={save} onCancel={onHide} />}
    </JobModal>
  );
}
