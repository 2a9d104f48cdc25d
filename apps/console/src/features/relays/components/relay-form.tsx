import { CAPTURE_SOURCES, RELAY_FORMAT_LABELS, RELAY_FORMATS, type Relay, RelayCreate } from '@streamcloud/contract';
import { useWatch } from 'react-hook-form';
import { fixedCheck, fixedSelect } from '@/components/stream-jobs/fixed-control';
import { AutostartField, CallbackUriField, StreamIdField } from '@/components/stream-jobs/job-form-fields';
import { JobFormFrame } from '@/components/stream-jobs/job-form-frame';
import { type JobFormProps, type JobFormSetup, useJobForm } from '@/components/stream-jobs/use-job-form';
import { Options, SelectField } from '@/components/ui/form-fields';
import { contractResolver } from '@/lib/forms';
import { fieldOfPath, newRelayValues, type RelayFormValues, toBody, toFormValues } from '../utils/relay-form-values';
import { RelayDestinationFields } from './relay-destination-fields';

const SETUP: JobFormSetup<Relay, RelayFormValues> = {
  label: 'Relay',
  // The contract's rules check the body the inputs stand for; each message shows under its input.
  resolver: contractResolver<RelayFormValues>(RelayCreate, { toBody: (values) => toBody(values), fieldOfPath }),
  fieldOfPath,
  newValues: newRelayValues,
  toFormValues,
};

export type RelayFormProps = JobFormProps<Relay, RelayFormValues>;

/** Section 5's relay form, as the body of a modal; format and autostart are locked when editing. */
export function RelayForm(props: RelayFormProps) {
  const relay = props.job;
  const {
    register,
    control,
    formState: { errors },
    field,
    frame,
  } = useJobForm(props, SETUP);
  const format = useWatch({ control, name: 'format' });

  return (
    <JobFormFrame {...frame}>
      <StreamIdField noun="relay" {...field('streamId')} />
      <SelectField
        id="relay-format"
        label="Format"
        error={errors.format?.message}
        {...(relay ? fixedSelect(relay.format) : register('format'))}
      >
        <Options values={RELAY_FORMATS} label={(value) => RELAY_FORMAT_LABELS[value]} />
      </SelectField>
      <AutostartField
        noun="relay"
        help="Relay each time the stream starts ingesting, until the relay is stopped."
        {...(relay ? fixedCheck(relay.autostart) : register('autostart'))}
      />
      <RelayDestinationFields
        format={format}
        keySet={relay?.format === 'RTMP' && relay.output.keySet}
        register={register}
        field={field}
      />
      <CallbackUriField noun="relay" {...field('callbackUri')} />
      <SelectField
        id="relay-capture-source"
        label="Capture source"
        // defaultValue too: the select must show the stored source before react-hook-form reads it back.
        defaultValue={relay?.capture.source ?? 'Incoming'}
        {...field('captureSource')}
      >
        <Options values={CAPTURE_SOURCES} />
      </SelectField>
    </JobFormFrame>
  );
}
