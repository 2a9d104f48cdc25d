import {
  type CaptureSource,
  capturePreset,
  DEFAULT_FILE_NAME,
  DEFAULT_RECORDING_FORMAT,
  type Recording,
  type RecordingCreateInput,
  type RecordingFileFormat,
  type RecordingUpdateInput,
  type TrackSelector,
} from '@streamcloud/contract';

/** What the inputs hold. */
export interface RecordingFormValues {
  streamId: string;
  fileName: string;
  fileFormat: RecordingFileFormat;
  storageId: string;
  autostart: boolean;
  callbackUri: string;
  captureSource: CaptureSource;
  tracks: TrackSelector[];
}

/** Section 5's defaults: the uuid template, MKV, no autostart; the preset All (section 4). */
export function newRecordingValues(streamId: string): RecordingFormValues {
  return {
    streamId,
    fileName: DEFAULT_FILE_NAME,
    fileFormat: DEFAULT_RECORDING_FORMAT,
    storageId: '',
    autostart: false,
    callbackUri: '',
    captureSource: 'Incoming',
    tracks: capturePreset('All'),
  };
}

export function toFormValues(recording: Recording): RecordingFormValues {
  return {
    streamId: recording.streamId,
    fileName: recording.fileName,
    fileFormat: recording.fileFormat,
    storageId: recording.storageId,
    autostart: recording.autostart,
    callbackUri: recording.callbackUri ?? '',
    captureSource: recording.capture.source,
    tracks: recording.capture.tracks,
  };
}

/** The create body; an empty callback URI is left out (section 5). */
export function toCreateBody(values: RecordingFormValues): RecordingCreateInput {
  const callbackUri = values.callbackUri.trim();
  return {
    streamId: values.streamId,
    fileName: values.fileName,
    fileFormat: values.fileFormat,
    storageId: values.storageId,
    autostart: values.autostart,
    ...(callbackUri ? { callbackUri } : {}),
    capture: { source: values.captureSource, tracks: values.tracks },
  };
}

/** The update body: the changeable fields only (file format and autostart are fixed). */
export function toUpdateBody(values: RecordingFormValues): RecordingUpdateInput {
  const { streamId: _streamId, fileFormat: _fileFormat, autostart: _autostart, ...rest } = toCreateBody(values);
  return rest as RecordingUpdateInput;
}

/** Where a message about a body path shows in the form. */
export function fieldOfPath(path: readonly PropertyKey[]): keyof RecordingFormValues | null {
  const [first, second] = path;
  if (first === 'capture') return second === 'source' ? 'captureSource' : 'tracks';
  const fields: readonly string[] = ['streamId', 'fileName', 'fileFormat', 'storageId', 'autostart', 'callbackUri'];
  return typeof first === 'string' && fields.includes(first) ? (first as keyof RecordingFormValues) : null;
}

/** 'Track 2: …' for a message about one selector. */
export function trackMessage(path: readonly PropertyKey[], message: string): string {
  return path[0] === 'capture' && path[1] === 'tracks' && typeof path[2] === 'number'
    ? `Track ${path[2] + 1}: ${message}`
    : message;
}
