import { messageOr } from '@streamcloud/api-client';
import {
  AccessMode,
  InputFormat,
  OutputModeEnum,
  STREAM_FORMATS,
  type StreamInput,
  StreamInputCreate,
  type StreamInputCreateDraft,
  StreamInputUpdate,
  streamRoutes,
} from '@streamcloud/contract';
import { useEffect } from 'react';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { type Resolver, useForm, useWatch } from 'react-hook-form';
import { LocationNote } from '@/components/location/location-note';
import { CheckField, Options, SelectField, TextField, UrlField } from '@/components/ui/form-fields';
import { ModalActions } from '@/components/ui/modal-actions';
import { useNotify } from '@/components/ui/notifications';
import { useLocationLookup } from '@/data/location/use-location-lookup';
import { savesResource } from '@/data/resource-writes';
import { useRouteMutation } from '@/data/route-mutation';
import { streamKeys } from '@/data/streams/keys';
import { useUpdateStream } from '@/data/streams/update-stream';
import { contractResolver, fieldsByPath, fieldsOf } from '@/lib/forms';
import { STREAM_ERRORS } from '../utils/messages';
import {
  FIELD_OF_PATH,
  NEW_STREAM_VALUES,
  type StreamFormValues,
  sendsAccessToken,
  showsAccessToken,
  toCreateBody,
  toStreamFormValues,
  toUpdateBody,
} from '../utils/stream-form';
import { ACCESS_LABELS, OUTPUT_MODE_LABELS } from '../utils/stream-list';

export type StreamModalMode = 'create' | 'update';

const fieldOfPath = fieldsByPath(FIELD_OF_PATH);

/** The contract's schemas validate the body the form would send; their messages land on the fields. */
function streamResolver(mode: StreamModalMode, ownerId: string | null): Resolver<StreamFormValues> {
  return mode === 'create'
    ? contractResolver(StreamInputCreate, { toBody: (values) => toCreateBody(values, null, ownerId), fieldOfPath })
    : contractResolver(StreamInputUpdate, { toBody: (values) => toUpdateBody(values, null), fieldOfPath });
}

export interface StreamModalProps {
  show: boolean;
  mode: StreamModalMode;
  /** The stream being updated. */
  stream?: StreamInput | undefined;
  /** ADMIN on an account's list: the account the new stream belongs to. */
  ownerId?: string | null;
  onHide: () => void;
  onSaved: (stream: StreamInput) => void;
}

/** Creates a stream, or updates one (only the streamer can change after creation). */
export function StreamModal({ show, mode, stream, ownerId = null, onHide, onSaved }: StreamModalProps) {
  const notify = useNotify();
  const create = useRouteMutation(streamRoutes.create, {
    toRequest: (body: StreamInputCreateDraft) => ({ body }),
    ...savesResource(streamKeys),
  });
  const update = useUpdateStream();
  const updating = mode === 'update';
  const initial = updating && stream ? toStreamFormValues(stream) : NEW_STREAM_VALUES;
  const form = useForm<StreamFormValues>({ resolver: streamResolver(mode, ownerId), defaultValues: initial });
  const { register, handleSubmit, reset, control } = form;
  const field = fieldsOf(form);

  // Every opening starts from the defaults, or from the stream as it is now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only an opening resets the form
  useEffect(() => {
    if (show) reset(updating && stream ? toStreamFormValues(stream) : NEW_STREAM_VALUES);
  }, [show, reset]);

  const access = useWatch({ control, name: 'access' });
  const format = useWatch({ control, name: 'format' });
  const streamerIp = useWatch({ control, name: 'streamerIp' }) ?? '';
  // Looked up only while the modal is open.
  const location = useLocationLookup(show ? streamerIp : '');
  const geo = location.kind === 'found' ? location.geo : null;

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved =
        updating && stream
          ? await update.mutateAsync({ id: stream.id, body: toUpdateBody(values, geo) })
          : await create.mutateAsync(toCreateBody(values, geo, ownerId));
      onSaved(saved);
    } catch (error) {
      console.error(updating ? 'Stream update failed' : 'Stream creation failed', error);
      notify(messageOr(error, updating ? STREAM_ERRORS.updating : STREAM_ERRORS.creation));
    }
  });

  return (
    <Modal show={show} onHide={onHide} aria-labelledby="stream-modal-title" size="lg">
      <Form noValidate onSubmit={onSubmit} aria-label={updating ? 'Update stream' : 'Create stream'}>
        <Modal.Header closeButton closeLabel="Close">
          <Modal.Title id="stream-modal-title">{updating ? 'Update stream' : 'Create stream'}</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {updating && (
            <p className="small text-secondary">
              Caption, format, output, access, GSLB and callback URI are set when the stream is created and cannot be
              changed.
            </p>
          )}
          <TextField id="stream-caption" label="Caption" autoComplete="off" disabled={updating} {...field('caption')} />
          <div className="row row-cols-md-3">
            <SelectField id="stream-format" label="Format" disabled={updating} {...register('format')}>
              {(updating ? InputFormat.options : STREAM_FORMATS).map((format) => (
                <option key={format} value={format}>
                  {format}
                </option>
              ))}
            </SelectField>
            <SelectField id="stream-output" label="Output" disabled={updating} {...register('output')}>
              <Options values={OutputModeEnum.options} label={(mode) => OUTPUT_MODE_LABELS[mode]} />
            </SelectField>
            <SelectField id="stream-access" label="Access" disabled={updating} {...register('access')}>
              <Options values={AccessMode.options} label={(mode) => ACCESS_LABELS[mode]} />
            </SelectField>
          </div>
          {format === 'Internode' && (
            <fieldset>
              <legend className="h6">Source stream</legend>
              <div className="row row-cols-md-2">
                <TextField
                  id="stream-source-node"
                  label="Stream node"
                  autoComplete="off"
                  disabled={updating}
                  {...field('sourceNode')}
                />
                <TextField
                  id="stream-source-name"
                  label="Stream name"
                  autoComplete="off"
                  disabled={updating}
                  {...field('sourceName')}
                />
              </div>
              <p className="form-text mt-n2 mb-3">
                The stream to pull and the node it is on, as its dashboard shows them: this stream's node pulls it while
                it is live.
              </p>
            </fieldset>
          )}
          {showsAccessToken(access) && (
            <>
              <TextField
                id="stream-access-token"
                label="Access token"
                autoComplete="off"
                disabled={updating || !sendsAccessToken(access)}
                {...field('accessToken')}
              />
              <p className="form-text mt-n2 mb-3">
                {updating
                  ? 'The access token cannot be changed.'
                  : sendsAccessToken(access)
                    ? 'Leave it blank to have one generated.'
                    : 'For Private ingoing access the token is generated by the server.'}
              </p>
            </>
          )}
          <CheckField kind="switch" id="stream-gslb" label="GSLB" disabled={updating} {...register('gslb')} />
          <UrlField id="stream-callback-uri" label="Callback URI" disabled={updating} {...field('callbackUri')} />
          <TextField
            id="stream-streamer-ip"
            label="Streamer IP"
            autoComplete="off"
            inputMode="decimal"
            {...field('streamerIp')}
          />
          <LocationNote lookup={location} testId="streamer-location" />
        </Modal.Body>
        <ModalActions
          onCancel={onHide}
          submitLabel={updating ? 'Update' : 'Create'}
          submitDisabled={form.formState.isSubmitting}
        />
      </Form>
    </Modal>
  );
}
