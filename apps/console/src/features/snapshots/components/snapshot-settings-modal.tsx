import { messageOr } from '@streamcloud/api-client';
import {
  SNAPSHOT_DIRECTIONS,
  SNAPSHOT_FORMATS,
  SNAPSHOT_INTERVAL,
  SNAPSHOT_QUALITIES,
  type SnapshotDirection,
  type SnapshotSettings,
} from '@streamcloud/contract';
import Modal from 'react-bootstrap/Modal';
import { useForm, useWatch } from 'react-hook-form';
import { CheckField, NumberField, Options, SelectField } from '@/components/ui/form-fields';
import { Loading } from '@/components/ui/loading';
import { ModalActions } from '@/components/ui/modal-actions';
import { useNotify } from '@/components/ui/notifications';
import { useSnapshotSettings, useUpdateSnapshotSettings } from '@/data/snapshots/settings';
import { fieldsOf } from '@/lib/forms';
import { directionValues, type SnapshotFormValues, settingsOf, snapshotResolver } from '../utils/snapshot-form-values';

/** Shown when an update fails without a message of the server's. */
export const UPDATE_FAILED = 'Something wrong with snapshot settings update';
export const SAVED = 'Snapshot settings saved';

const TITLES: Record<SnapshotDirection, string> = { incoming: 'Incoming', outgoing: 'Outgoing' };

function SnapshotForm({
  streamId,
  initial,
  onDone,
}: {
  streamId: string;
  initial: Record<SnapshotDirection, SnapshotSettings | null>;
  onDone: () => void;
}) {
  const notify = useNotify();
  const update = useUpdateSnapshotSettings();
  const form = useForm<SnapshotFormValues>({
    resolver: snapshotResolver,
    mode: 'onChange',
    defaultValues: { incoming: directionValues(initial.incoming), outgoing: directionValues(initial.outgoing) },
  });
  const { register, handleSubmit, control, getValues } = form;
  const { isValid, isSubmitting } = form.formState;
  const field = fieldsOf(form);
  const enabled = {
    incoming: useWatch({ control, name: 'incoming.enabled' }),
    outgoing: useWatch({ control, name: 'outgoing.enabled' }),
  };

  const submit = handleSubmit(async (values) => {
    try {
      await update.mutateAsync({
        streamId,
        settings: {
          incoming: settingsOf(values.incoming) as SnapshotSettings | null,
          outgoing: settingsOf(values.outgoing) as SnapshotSettings | null,
        },
      });
      notify(SAVED, 'success');
      onDone();
    } catch (error) {
      notify(messageOr(error, UPDATE_FAILED));
    }
  });

  return (
    <form noValidate onSubmit={submit} aria-label="Snapshot settings">
      <Modal.Body>
        {SNAPSHOT_DIRECTIONS.map((direction) => {
          const off = !enabled[direction];
          return (
            <fieldset
              key={direction}
              className="mb-3 border rounded p-3"
              aria-labelledby={`snapshot-${direction}-legend`}
            >
              <legend id={`snapshot-${direction}-legend`} className="h6 float-none w-auto px-1 mb-2">
                {TITLES[direction]}
              </legend>
              <CheckField
                id={`snapshot-${direction}-enabled`}
                label={`Enable ${direction} snapshots`}
                {...register(`${direction}.enabled`)}
              />
              <div className="row row-cols-sm-3">
                <SelectField
                  id={`snapshot-${direction}-format`}
                  label="Format"
                  defaultValue={getValues(`${direction}.format`)}
                  disabled={off}
                  {...field(`${direction}.format`)}
                >
                  <Options values={SNAPSHOT_FORMATS} />
                </SelectField>
                <SelectField
                  id={`snapshot-${direction}-quality`}
                  label="Quality"
                  defaultValue={getValues(`${direction}.quality`)}
                  disabled={off}
                  {...field(`${direction}.quality`)}
                >
                  <Options values={SNAPSHOT_QUALITIES} />
                </SelectField>
                <NumberField
                  id={`snapshot-${direction}-interval`}
                  label="Interval (seconds)"
                  min={SNAPSHOT_INTERVAL.min}
                  max={SNAPSHOT_INTERVAL.max}
                  step={1}
                  disabled={off}
                  {...field(`${direction}.interval`, { deps: [`${direction}.enabled`] })}
                />
              </div>
            </fieldset>
          );
        })}
      </Modal.Body>
      <ModalActions
        onCancel={onDone}
        submitLabel={isSubmitting ? 'Saving…' : 'Save'}
        submitDisabled={!isValid || isSubmitting}
      />
    </form>
  );
}

function LoadSettings({ streamId, onDone }: { streamId: string; onDone: () => void }) {
  const incoming = useSnapshotSettings(streamId, 'incoming');
  const outgoing = useSnapshotSettings(streamId, 'outgoing');
  if (incoming.isPending || outgoing.isPending) {
    return (
      <Modal.Body>
        <Loading />
      </Modal.Body>
    );
  }
  // A failed load is silent (section 8): the form starts from the defaults, both directions off.
  return (
    <SnapshotForm
      streamId={streamId}
      initial={{ incoming: incoming.data ?? null, outgoing: outgoing.data ?? null }}
      onDone={onDone}
    />
  );
}

export interface SnapshotSettingsModalProps {
  streamId: string;
  show: boolean;
  onHide: () => void;
}

/**
 * Snapshot settings per direction: enable, format (JPEG, PNG), quality (Low, Medium, High), interval
 * 1 to 30 seconds (default 5). Closes by its close button, Escape or the backdrop.
 */
export function SnapshotSettingsModal({ streamId, show, onHide }: SnapshotSettingsModalProps) {
  return (
    <Modal show={show} onHide={onHide} centered size="lg" aria-labelledby="snapshot-settings-title">
      <Modal.Header closeButton closeLabel="Close">
        <Modal.Title id="snapshot-settings-title">Snapshot settings</Modal.Title>
      </Modal.Header>
      {show && <LoadSettings streamId={streamId} onDone={onHide} />}
    </Modal>
  );
}
