import {
  applyFileFormat,
  MP4_TOOLTIP,
  RECORDING_FORMATS,
  type Recording,
  type RecordingFileFormat,
  RecordingFormSchema,
} from '@streamcloud/contract';
import { useState } from 'react';
import Form from 'react-bootstrap/Form';
import { Controller, useWatch } from 'react-hook-form';
import { fixedCheck, fixedSelect } from '@/components/stream-jobs/fixed-control';
import { AutostartField, CallbackUriField, StreamIdField } from '@/components/stream-jobs/job-form-fields';
import { JobFormFrame } from '@/components/stream-jobs/job-form-frame';
import { type JobFormProps, type JobFormSetup, useJobForm } from '@/components/stream-jobs/use-job-form';
import { Options } from '@/components/ui/form-fields';
import { useStream } from '@/data/streams/get-stream';
import { contractResolver } from '@/lib/forms';
import {
  fieldOfPath,
  newRecordingValues,
  type RecordingFormValues,
  toCreateBody,
  toFormValues,
  trackMessage,
} from '../utils/recording-form-values';
import { CaptureEditor } from './capture-editor';
import { FileNameField } from './file-name-field';
import { TippedLabel } from './info-tip';
import { StorageField } from './storage-field';

const SETUP: JobFormSetup<Recording, RecordingFormValues> = {
  label: 'Recording',
  // The contract's rules check the body the inputs stand for; each message shows under its input.
  resolver: contractResolver(RecordingFormSchema, { toBody: toCreateBody, fieldOfPath, messageOf: trackMessage }),
  fieldOfPath,
  newValues: newRecordingValues,
  toFormValues,
};

export type RecordingFormProps = JobFormProps<Recording, RecordingFormValues>;

/** Section 5's recording form, as the body of a modal; file format and autostart are locked when editing. */
export function RecordingForm(props: RecordingFormProps) {
  const { streamId, job: recording } = props;
  const stream = useStream(streamId);
  const [dropped, setDropped] = useState<string | null>(null);
  const {
    register,
    control,
    setValue,
    getValues,
    formState: { errors },
    field,
    frame,
  } = useJobForm(props, SETUP);
  const [autostart, fileFormat, captureSource] = useWatch({
    control,
    name: ['autostart', 'fileFormat', 'captureSource'],
  });

  const changeFormat = (format: RecordingFileFormat) => {
    const tracks = getValues('tracks');
    const kept = applyFileFormat(tracks, format);
    const count = tracks.length - kept.length;
    setDropped(
      count > 0 ? `${count} track ${count === 1 ? 'selector was' : 'selectors were'} dropped: ${MP4_TOOLTIP}` : null,
    );
    setValue('tracks', kept, { shouldValidate: true, shouldDirty: true });
  };

  return (
    <JobFormFrame {...frame}>
      <StreamIdField noun="recording" {...field('streamId')} />
      <Controller
        control={control}
        name="fileName"
        render={({ field: input }) => (
          <FileNameField
            value={input.value}
            onChange={input.onChange}
            onBlur={input.onBlur}
            error={errors.fileName?.message}
            autostart={autostart}
            streamId={streamId}
            streamName={stream.data?.name}
          />
        )}
      />
      <Form.Group className="mb-3" controlId="recording-file-format">
        <TippedLabel tip={{ label: 'About file formats', text: MP4_TOOLTIP }}>File format</TippedLabel>
        <Form.Select
          {...(recording
            ? fixedSelect(recording.fileFormat)
            : register('fileFormat', { onChange: (event) => changeFormat(event.target.value) }))}
        >
          <Options values={RECORDING_FORMATS} />
        </Form.Select>
        {fileFormat === 'MP4' && <Form.Text className="d-block">{MP4_TOOLTIP}</Form.Text>}
        {dropped && <Form.Text className="d-block text-warning-emphasis">{dropped}</Form.Text>}
      </Form.Group>
      <StorageField stored={recording?.storageId} {...field('storageId')} />
      <AutostartField
        noun="recording"
        help="Record each time the stream starts ingesting, until the recording is stopped."
        {...(recording ? fixedCheck(recording.autostart) : register('autostart'))}
      />
      <CallbackUriField noun="recording" {...field('callbackUri')} />
      <Controller
        control={control}
        name="tracks"
        render={({ field: input }) => (
          <CaptureEditor
            streamId={streamId}
            source={captureSource}
            onSourceChange={(source) => setValue('captureSource', source, { shouldValidate: true, shouldDirty: true })}
            tracks={input.value}
            onTracksChange={(tracks) => input.onChange(tracks)}
            fileFormat={fileFormat}
            initialPreset={frame.editing ? null : 'All'}
            error={errors.tracks?.message ?? errors.captureSource?.message}
          />
        )}
      />
    </JobFormFrame>
  );
}
