import {
  applyFileFormat,
  MP4_TOOLTIP,
  RECORDING_FORMATS,
  type Recording,
  type RecordingFileFormat,
  RecordingFormSchema,
} from '@streamcloud/contract';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { Controller, type FieldErrors, type Resolver, type UseFormSetError, useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { SelectField, TextField } from '@/components/ui/form-fields';
import { isApiError } from '@/lib/api-error';
import { useStorages } from '../api/get-storages';
import { useStream } from '../api/get-stream';
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
import { InfoTip } from './info-tip';

/** The contract's form rules check the body the inputs stand for; each message shows under its input. */
const resolver: Resolver<RecordingFormValues> = async (values) => {
  const result = RecordingFormSchema.safeParse(toCreateBody(values));
  if (result.success) return { values, errors: {} };
  const errors: Record<string, { type: string; message: string }> = {};
  for (const issue of result.error.issues) {
    const field = fieldOfPath(issue.path);
    if (!field || errors[field]) continue;
    errors[field] = { type: issue.code, message: trackMessage(issue.path, issue.message) };
  }
  return { values: {}, errors: errors as FieldErrors<RecordingFormValues> };
};

/** Puts the server's per-field messages (`body.fileName`) under the matching inputs. */
function showFieldErrors(error: unknown, setError: UseFormSetError<RecordingFormValues>) {
  if (!isApiError(error)) return;
  for (const item of error.errors ?? []) {
    const path = item.path
      .replace(/^body\.?/, '')
      .split('.')
      .filter(Boolean);
    const field = fieldOfPath(path.map((part) => (/^\d+$/.test(part) ? Number(part) : part)));
    if (field) setError(field, { message: item.message });
  }
}

export interface RecordingFormProps {
  streamId: string;
  /** The recording being edited; absent when creating one. */
  recording?: Recording;
  /** Saves; a rejection leaves the form open as it is (the caller tells why). */
  onSave: (values: RecordingFormValues) => Promise<void>;
  onCancel: () => void;
}

/** Section 5's recording form, as the body of a modal. */
export function RecordingForm({ streamId, recording, onSave, onCancel }: RecordingFormProps) {
  const editing = recording !== undefined;
  const storages = useStorages();
  const stream = useStream(streamId);
  const [dropped, setDropped] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setValue,
    getValues,
    setError,
    formState: { errors, isValid, isSubmitting },
  } = useForm<RecordingFormValues>({
    resolver,
    mode: 'all',
    defaultValues: recording ? toFormValues(recording) : newRecordingValues(streamId),
  });
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

  const onSubmit = handleSubmit(async (values) => {
    try {
      await onSave(values);
    } catch (error) {
      showFieldErrors(error, setError);
    }
  });

  const storageOptions = storages.data ?? [];
  // The stored storage is an option from the start, so the select keeps it while the list loads.
  const storedStorage = recording?.storageId;
  const listed = storageOptions.some((storage) => storage.id === storedStorage);

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Recording">
      <Modal.Body>
        <TextField
          id="recording-stream-id"
          label="Stream ID"
          readOnly
          {...register('streamId')}
          error={errors.streamId?.message}
        />
        <Controller
          control={control}
          name="fileName"
          render={({ field }) => (
            <FileNameField
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errors.fileName?.message}
              autostart={autostart}
              streamId={streamId}
              streamName={stream.data?.name}
            />
          )}
        />
        <Form.Group className="mb-3" controlId="recording-file-format">
          <div className="d-flex align-items-center">
            <Form.Label className="mb-1">File format</Form.Label>
            <InfoTip label="About file formats" text={MP4_TOOLTIP} />
          </div>
          {/* Fixed after creation: shown, not registered (a disabled input has no value in the form). */}
          <Form.Select
            {...(recording
              ? { value: recording.fileFormat, disabled: true, onChange: () => undefined }
              : register('fileFormat', { onChange: (event) => changeFormat(event.target.value) }))}
          >
            {RECORDING_FORMATS.map((format) => (
              <option key={format} value={format}>
                {format}
              </option>
            ))}
          </Form.Select>
          {fileFormat === 'MP4' && <Form.Text className="d-block">{MP4_TOOLTIP}</Form.Text>}
          {dropped && <Form.Text className="d-block text-warning-emphasis">{dropped}</Form.Text>}
        </Form.Group>
        <SelectField
          id="recording-storage"
          label="Storage"
          error={errors.storageId?.message}
          // defaultValue too: the select must show the stored storage before react-hook-form reads it back.
          defaultValue={storedStorage ?? ''}
          {...register('storageId')}
        >
          <option value="">{storages.isPending ? 'Loading storages…' : 'Choose a storage'}</option>
          {storageOptions.map((storage) => (
            <option key={storage.id} value={storage.id}>
              {storage.name} ({storage.bucket})
            </option>
          ))}
          {storedStorage && !listed && (
            <option value={storedStorage}>{storages.isPending ? 'Loading…' : storedStorage}</option>
          )}
        </SelectField>
        {storages.isSuccess && storageOptions.length === 0 && (
          <p className="small text-secondary mt-n2">
            No storage yet: <Link to="/storages/create">add a storage</Link> first.
          </p>
        )}
        {storages.isError && <p className="small text-danger mt-n2">The storages could not be loaded.</p>}
        <Form.Group className="mb-3" controlId="recording-autostart">
          <Form.Check
            type="checkbox"
            label="Autostart"
            {...(recording ? { checked: recording.autostart, disabled: true, readOnly: true } : register('autostart'))}
          />
          <Form.Text>Record each time the stream starts ingesting, until the recording is stopped.</Form.Text>
        </Form.Group>
        <TextField
          id="recording-callback-uri"
          label="Callback URI"
          type="url"
          placeholder="https://example.com/recording-events"
          autoComplete="off"
          error={errors.callbackUri?.message}
          {...register('callbackUri')}
        />
        <Controller
          control={control}
          name="tracks"
          render={({ field }) => (
            <CaptureEditor
              streamId={streamId}
              source={captureSource}
              onSourceChange={(source) =>
                setValue('captureSource', source, { shouldValidate: true, shouldDirty: true })
              }
              tracks={field.value}
              onTracksChange={(tracks) => field.onChange(tracks)}
              fileFormat={fileFormat}
              initialPreset={editing ? null : 'All'}
              error={errors.tracks?.message ?? errors.captureSource?.message}
            />
          )}
        />
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
