import { type RelayFormat, TIMESCALE_MAX, UDP_PORT_MAX } from '@streamcloud/contract';
import Form from 'react-bootstrap/Form';
import type { UseFormRegister } from 'react-hook-form';
import { FieldBox } from '@/components/ui/field-box';
import { CheckField, NumberField, SecretField, TextField, UrlField } from '@/components/ui/form-fields';
import type { FieldBinder } from '@/lib/forms';
import { MASKED_KEY } from '../utils/messages';
import type { RelayFormValues } from '../utils/relay-form-values';

interface FieldsProps {
  /** For the checkboxes, which show no message. */
  register: UseFormRegister<RelayFormValues>;
  field: FieldBinder<RelayFormValues>;
}

/** The RTMP server and stream key; a stored key is never shown, and a blank one keeps it. */
function RtmpFields({ field, keySet }: FieldsProps & { keySet: boolean }) {
  return (
    <FieldBox legend="RTMP destination">
      <TextField
        id="relay-server"
        label="Server"
        placeholder="rtmp://live.example.com/app"
        autoComplete="off"
        {...field('server')}
      />
      <SecretField
        id="relay-key"
        label="Stream key"
        isSet={keySet}
        setPlaceholder={`${MASKED_KEY} (hidden)`}
        setHelp="A stream key is set and shown masked. Leave this blank to keep it, or type a new one to replace it."
        {...field('key')}
      />
    </FieldBox>
  );
}

const TIMESCALES = [
  ['videoTimescale', 'Video timescale'],
  ['audioTimescale', 'Audio timescale'],
  ['metaTimescale', 'Meta timescale'],
] as const;

/** The CMAF ingest endpoint and its options. */
function CmafFields({ register, field }: FieldsProps) {
  return (
    <FieldBox legend="CMAF destination">
      <UrlField
        id="relay-endpoint"
        label="Endpoint"
        placeholder="https://ingest.example.com/pub/channel.isml"
        {...field('endpoint')}
      />
      <CheckField id="relay-usp" label="Unified Streaming Platform" {...register('unifiedStreamingPlatform')} />
      <TextField id="relay-event-id" label="Event ID" autoComplete="off" {...field('eventID')} />
      <div className="row">
        {TIMESCALES.map(([name, label]) => (
          <div key={name} className="col-sm-4">
            <NumberField id={`relay-${name}`} label={label} min={0} max={TIMESCALE_MAX} step={1} {...field(name)} />
          </div>
        ))}
      </div>
      <Form.Text>Timescales are 0 to {TIMESCALE_MAX}; leave one blank for the node's default.</Form.Text>
    </FieldBox>
  );
}

/** The UDP address and port the MPEG-TS goes to. */
function UdpFields({ field }: FieldsProps) {
  return (
    <FieldBox legend="UDP destination">
      <div className="row">
        <div className="col-sm-8">
          <TextField
            id="relay-ip-address"
            label="IP address"
            placeholder="239.0.0.1"
            autoComplete="off"
            {...field('ipAddress')}
          />
        </div>
        <div className="col-sm-4">
          <NumberField id="relay-port" label="Port" min={0} max={UDP_PORT_MAX} step={1} {...field('port')} />
        </div>
      </div>
    </FieldBox>
  );
}

/** Where the relay sends the stream: the chosen format's fields. */
export function RelayDestinationFields({
  format,
  keySet,
  ...props
}: FieldsProps & { format: RelayFormat; keySet: boolean }) {
  switch (format) {
    case 'RTMP':
      return <RtmpFields {...props} keySet={keySet} />;
    case 'CMAF':
      return <CmafFields {...props} />;
    case 'UDPTS':
      return <UdpFields {...props} />;
  }
}
