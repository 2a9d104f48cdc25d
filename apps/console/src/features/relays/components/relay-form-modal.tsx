import { type Relay, type RelayCreateInput, type RelayUpdateInput, relayRoutes } from '@streamcloud/contract';
import { JobModal } from '@/components/stream-jobs/job-modal';
import { useSaveAndClose } from '@/components/stream-jobs/use-save-and-close';
import { relayKeys } from '@/data/relays/keys';
import { savesResource } from '@/data/resource-writes';
import { useRouteMutation } from '@/data/route-mutation';
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
  const create = useRouteMutation(relayRoutes.create, {
    toRequest: (body: RelayCreateInput) => ({ body }),
    ...savesResource(relayKeys),
  });
  const update = useRouteMutation(relayRoutes.update, {
    toRequest: ({ id, body }: { id: string; body: RelayUpdateInput }) => ({ params: { id }, body }),
    ...savesResource(relayKeys),
  });
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
