import {
  CAPTURE_SOURCES,
  RELAY_FORMAT_LABELS,
  RELAY_FORMATS,
  type Relay,
  RelayCreate,
  TIMESCALE_MAX,
  UDP_PORT_MAX,
} from '@streamcloud/contract';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { type FieldErrors, type Resolver, type UseFormSetError, useForm, useWatch } from 'react-hook-form';
import { SelectField, TextField } from '@/components/ui/form-fields';
import { isApiError } from '@/lib/api-error';
import { MASKED_KEY } from '../utils/messages';
import { fieldOfPath, newRelayValues, type RelayFormValues, toBody, toFormValues } from '../utils/relay-form-values';

/** The contract's rules check the body the inputs stand for; each message shows under its input. */
const resolver: Resolver<RelayFormValues> = async (values) => {
  const result = RelayCreate.safeParse(toBody(values));
  if (result.success) return { values, errors: {} };
  const errors: Record<string, { type: string; message: string }> = {};
  for (const issue of result.error.issues) {
    const field = fieldOfPath(issue.path);
    if (!field || errors[field]) continue;
    errors[field] = { type: issue.code, message: issue.message };
  }
  return { values: {}, errors: errors as FieldErrors<RelayFormValues> };
};

/** Puts the server's per-field messages (`body.output.server`) under the matching inputs. */
function showFieldErrors(error: unknown, setError: UseFormSetError<RelayFormValues>) {
  if (!isApiError(error)) return;
  for (const item of error.errors ?? []) {
    const field = fieldOfPath(
      item.path
        .replace(/^body\.?/, '')
        .split('.')
        .filter(Boolean),
    );
    if (field) setError(field, { message: item.message });
  }
}

export interface RelayFormProps {
  streamId: string;
  /** The relay being edited; absent when creating one. */
  relay?: Relay;
  onSave: (values: RelayFormValues) => Promise<void>;
  onCancel: () => void;
}

/** Section 5's relay form, as the body of a modal; format and autostart are locked when editing. */
export function RelayForm({ streamId, relay, onSave, onCancel }: RelayFormProps) {
  const editing = relay !== undefined;
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isValid, isSubmitting },
  } = useForm<RelayFormValues>({
    resolver,
    mode: 'all',
    defaultValues: relay ? toFormValues(relay) : newRelayValues(streamId),
  });
  const format = useWatch({ control, name: 'format' });
  const keySet = relay?.format === 'RTMP' && relay.output.keySet;

  const onSubmit = handleSubmit(async (values) => {
    try {
      await onSave(values);
    } catch (error) {
      showFieldErrors(error, setError);
    }
  });

  const timescale = (name: 'videoTimescale' | 'audioTimescale' | 'metaTimescale', label: string) => (
    <div className="col-sm-4">
      <TextField
        id={`relay-${name}`}
        label={label}
        type="number"
        min={0}
        max={TIMESCALE_MAX}
        step={1}
        error={errors[name]?.message}
        {...register(name)}
      />
    </div>
  );

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Relay">
      <Modal.Body>
        <TextField
          id="relay-stream-id"
          label="Stream ID"
          readOnly
          error={errors.streamId?.message}
          {...register('streamId')}
        />
        {/* Fixed after creation: shown, not registered (a disabled input has no value in the form). */}
        <SelectField
          id="relay-format"
          label="Format"
          error={errors.format?.message}
          {...(relay ? { value: relay.format, disabled: true, onChange: () => undefined } : register('format'))}
        >
          {RELAY_FORMATS.map((value) => (
            <option key={value} value={value}>
              {RELAY_FORMAT_LABELS[value]}
            </option>
          ))}
        </SelectField>
        <Form.Group className="mb-3" controlId="relay-autostart">
          <Form.Check
            type="checkbox"
            label="Autostart"
            {...(relay ? { checked: relay.autostart, disabled: true, readOnly: true } : register('autostart'))}
          />
          <Form.Text>Relay each time the stream starts ingesting, until the relay is stopped.</Form.Text>
        </Form.Group>

        {format === 'RTMP' && (
          <fieldset className="border rounded p-3 mb-3">
            <legend className="fs-6 float-none w-auto px-1 mb-0">RTMP destination</legend>
            <TextField
              id="relay-server"
              label="Server"
              placeholder="rtmp://live.example.com/app"
              autoComplete="off"
              error={errors.server?.message}
              {...register('server')}
            />
            <Form.Group className="mb-0" controlId="relay-key">
              <Form.Label>Stream key</Form.Label>
              <Form.Control
                type="password"
                autoComplete="new-password"
                placeholder={keySet ? `${MASKED_KEY} (hidden)` : undefined}
                isInvalid={Boolean(errors.key)}
                aria-describedby={keySet ? 'relay-key-help' : undefined}
                {...register('key')}
              />
              {keySet && (
                <Form.Text id="relay-key-help">
                  A stream key is set and shown masked. Leave this blank to keep it, or type a new one to replace it.
                </Form.Text>
              )}
              {errors.key && <Form.Control.Feedback type="invalid">{errors.key.message}</Form.Control.Feedback>}
            </Form.Group>
          </fieldset>
        )}

        {format === 'CMAF' && (
          <fieldset className="border rounded p-3 mb-3">
            <legend className="fs-6 float-none w-auto px-1 mb-0">CMAF destination</legend>
            <TextField
              id="relay-endpoint"
              label="Endpoint"
              type="url"
              placeholder="https://ingest.example.com/pub/channel.isml"
              autoComplete="off"
              error={errors.endpoint?.message}
              {...register('endpoint')}
            />
            <Form.Group className="mb-3" controlId="relay-usp">
              <Form.Check
                type="checkbox"
                label="Unified Streaming Platform"
                {...register('unifiedStreamingPlatform')}
              />
            </Form.Group>
            <TextField
              id="relay-event-id"
              label="Event ID"
              autoComplete="off"
              error={errors.eventID?.message}
              {...register('eventID')}
            />
            <div className="row">
              {timescale('videoTimescale', 'Video timescale')}
              {timescale('audioTimescale', 'Audio timescale')}
              {timescale('metaTimescale', 'Meta timescale')}
            </div>
            <Form.Text>Timescales are 0 to {TIMESCALE_MAX}; leave one blank for the node's default.</Form.Text>
          </fieldset>
        )}

        {format === 'UDPTS' && (
          <fieldset className="border rounded p-3 mb-3">
            <legend className="fs-6 float-none w-auto px-1 mb-0">UDP destination</legend>
            <div className="row">
              <div className="col-sm-8">
                <TextField
                  id="relay-ip-address"
                  label="IP address"
                  placeholder="239.0.0.1"
                  autoComplete="off"
                  error={errors.ipAddress?.message}
                  {...register('ipAddress')}
                />
              </div>
              <div className="col-sm-4">
                <TextField
                  id="relay-port"
                  label="Port"
                  type="number"
                  min={0}
                  max={UDP_PORT_MAX}
                  step={1}
                  error={errors.port?.message}
                  {...register('port')}
                />
              </div>
            </div>
          </fieldset>
        )}

        <TextField
          id="relay-callback-uri"
          label="Callback URI"
          type="url"
          placeholder="https://example.com/relay-events"
          autoComplete="off"
          error={errors.callbackUri?.message}
          {...register('callbackUri')}
        />
        <SelectField
          id="relay-capture-source"
          label="Capture source"
          error={errors.captureSource?.message}
          // defaultValue too: the select must show the stored source before react-hook-form reads it back.
          defaultValue={relay?.capture.source ?? 'Incoming'}
          {...register('captureSource')}
        >
          {CAPTURE_SOURCES.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </SelectField>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={!isValid || isSubmitting}>
          {isSubmitting ? 'Saving…' : editing ? 'Update' : 'Create'}
        </Button>
      </Modal.Footer>
    </form>
  );
}
