import { z } from 'zod';
import {
  CaptureInput,
  CaptureView,
  dropDisallowedCodecs,
  type SelectorIssue,
  TRACK_CODECS,
  type TrackCodec,
  type TrackSelector,
} from './capture.js';
import { Id, IdParams, PageQuery, Timestamp } from './common.js';
import {
  DEFAULT_FILE_NAME,
  FILE_NAME_FORBIDDEN_MESSAGE,
  FILE_NAME_MAX,
  fileNameHasForbiddenCharacters,
  normalizeFileName,
} from './filename-template.js';
import { defineRoute } from './routes.js';
import { StatusMessage } from './stream-fields.js';

/**
 * Recordings of a stream to a storage. A recording is created in state Recording (the node serving the
 * stream starts it); nodes report Uploading, Completed or Error. An autostarting recording starts again
 * each time the stream ingests, until it is stopped. Stop only in Recording; delete only in Completed or
 * Error; the file format and autostart are fixed at creation.
 */

export const RECORDING_FORMATS = ['MKV', 'MP4'] as const;
export type RecordingFileFormat = (typeof RECORDING_FORMATS)[number];
export const DEFAULT_RECORDING_FORMAT: RecordingFileFormat = 'MKV';

export const RECORDING_STATES = ['Recording', 'Uploading', 'Completed', 'Error'] as const;
export type RecordingState = (typeof RECORDING_STATES)[number];
/** What `profile=ACTIVE` answers. */
export const ACTIVE_RECORDING_STATES: readonly RecordingState[] = ['Recording', 'Uploading'];

/** Codecs each file format can hold (section 4). */
export const RECORDING_FORMAT_CODECS: Record<RecordingFileFormat, readonly TrackCodec[]> = {
  MKV: TRACK_CODECS,
  MP4: ['H264', 'AAC', 'MP3'],
};

export const MP4_TOOLTIP = 'MP4 format restrictions: H.264, AAC, MP3 codec is supported';

export const STREAM_ID_MAX = 64;
export const CALLBACK_URI_MAX_LENGTH = 255;

export const RECORDING_MESSAGES = {
  streamIdRequired: 'Stream ID is required',
  streamIdMax: `Stream ID must be at most ${STREAM_ID_MAX} characters`,
  streamIdUuid: 'Stream ID must be a UUID',
  fileNameRequired: 'File name is required',
  fileNameMax: `File name must be at most ${FILE_NAME_MAX} characters`,
  fileNameForbidden: FILE_NAME_FORBIDDEN_MESSAGE,
  fileFormat: 'File format must be MKV or MP4',
  storageRequired: 'Storage is required',
  callbackUriMax: `Callback URI must be at most ${CALLBACK_URI_MAX_LENGTH} characters`,
  callbackUriUrl: 'Callback URI must be an http(s) URL',
  codecFormat: MP4_TOOLTIP,
  creationOnly: (field: string) => `${field} can be set only when the recording is created`,
} as const;

export function allowedCodecs(format: RecordingFileFormat): readonly TrackCodec[] {
  return RECORDING_FORMAT_CODECS[format];
}

/** On a file format change the selectors with a codec the format cannot hold are dropped (section 4). */
export function applyFileFormat(selectors: readonly TrackSelector[], format: RecordingFileFormat): TrackSelector[] {
  return dropDisallowedCodecs(selectors, allowedCodecs(format));
}

/** The selectors whose codec the format cannot hold (paths under `capture`). */
export function captureFormatIssues(
  selectors: readonly Pick<TrackSelector, 'codec'>[],
  format: RecordingFileFormat,
): SelectorIssue[] {
  const allowed = allowedCodecs(format);
  return selectors.flatMap((selector, index) =>
    selector.codec !== null && !allowed.includes(selector.codec)
      ? [{ path: ['capture', 'tracks', index, 'codec'], message: RECORDING_MESSAGES.codecFormat }]
      : [],
  );
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Section 5: required, at most 64; ids are UUIDs. */
export const StreamIdField = z
  .string({ error: RECORDING_MESSAGES.streamIdRequired })
  .min(1, RECORDING_MESSAGES.streamIdRequired)
  .max(STREAM_ID_MAX, RECORDING_MESSAGES.streamIdMax)
  .regex(UUID_PATTERN, RECORDING_MESSAGES.streamIdUuid);

export const CallbackUriField = z
  .string({ error: RECORDING_MESSAGES.callbackUriUrl })
  .max(CALLBACK_URI_MAX_LENGTH, RECORDING_MESSAGES.callbackUriMax)
  .pipe(z.url({ protocol: /^https?$/, error: RECORDING_MESSAGES.callbackUriUrl }));

const fileNameField = z
  .string({ error: RECORDING_MESSAGES.fileNameRequired })
  .max(FILE_NAME_MAX, RECORDING_MESSAGES.fileNameMax)
  .refine((value) => !fileNameHasForbiddenCharacters(value), RECORDING_MESSAGES.fileNameForbidden);

const fileFormatField = z.enum(RECORDING_FORMATS, { error: RECORDING_MESSAGES.fileFormat });
const storageIdField = z
  .string({ error: RECORDING_MESSAGES.storageRequired })
  .min(1, RECORDING_MESSAGES.storageRequired)
  .pipe(Id);

function formatRule(
  value: { fileFormat: RecordingFileFormat; capture: { tracks: { codec: TrackCodec | null }[] } },
  context: z.core.$RefinementCtx,
) {
  for (const issue of captureFormatIssues(value.capture.tracks, value.fileFormat)) {
    context.addIssue({ code: 'custom', ...issue });
  }
}

const createShape = {
  streamId: StreamIdField,
  fileName: fileNameField.default(DEFAULT_FILE_NAME),
  fileFormat: fileFormatField.default(DEFAULT_RECORDING_FORMAT),
  storageId: storageIdField,
  autostart: z.boolean({ error: 'Autostart must be true or false' }).default(false),
  /** Absent means none; the form drops an empty one. */
  callbackUri: CallbackUriField.optional(),
  capture: CaptureInput,
};

/**
 * Creating a recording. The file name is normalised as the form shows it: blank → `{uuid}`, and for
 * autostart a name without placeholders gets `_{uuid}` appended.
 */
export const RecordingCreate = z
  .strictObject(createShape)
  .superRefine(formatRule)
  .transform((value) => ({ ...value, fileName: normalizeFileName(value.fileName, { autostart: value.autostart }) }));
export type RecordingCreate = z.output<typeof RecordingCreate>;
export type RecordingCreateInput = z.input<typeof RecordingCreate>;

/** The form's rules: the API's, with the file name required (section 5). */
export const RecordingFormSchema = z
  .strictObject({
    ...createShape,
    fileName: fileNameField.refine((value) => value.trim() !== '', RECORDING_MESSAGES.fileNameRequired),
  })
  .superRefine(formatRule);

/**
 * Changing a recording: file name, storage, callback URI (absent removes it) and capture. The file format
 * and autostart may be repeated but not changed (400); the file name is normalised with the stored autostart.
 */
export const RecordingUpdate = z.strictObject({
  streamId: StreamIdField.optional(),
  fileName: fileNameField,
  fileFormat: fileFormatField.optional(),
  storageId: storageIdField,
  autostart: z.boolean({ error: 'Autostart must be true or false' }).optional(),
  callbackUri: CallbackUriField.optional(),
  capture: CaptureInput,
});
export type RecordingUpdate = z.output<typeof RecordingUpdate>;
export type RecordingUpdateInput = z.input<typeof RecordingUpdate>;

export const Recording = z.object({
  id: Id,
  streamId: Id,
  /** The stored template (normalised); each file's name is rendered from it when the recording starts. */
  fileName: z.string(),
  fileFormat: z.enum(RECORDING_FORMATS),
  storageId: Id,
  autostart: z.boolean(),
  callbackUri: z.string().nullable(),
  capture: CaptureView,
  state: z.enum(RECORDING_STATES),
  /** Seconds recorded. */
  duration: z.number(),
  /** Bytes written. */
  length: z.number(),
  /** Bytes uploaded to the storage. */
  uploaded: z.number(),
  /**
   * The key of the run's file in the storage's bucket (the storage's path, the rendered file name and the
   * extension), from when the node starts the file; the object's size is `length` once Completed.
   */
  objectKey: z.string().nullable(),
  messages: z.array(StatusMessage),
  /** A stop was asked for; the node finishes the file and uploads it. */
  stopRequested: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Recording = z.infer<typeof Recording>;

export const ActiveProfileQuery = z.strictObject({
  profile: z.enum(['ACTIVE'], { error: 'profile must be ACTIVE' }).optional(),
});

export const RecordingListQuery = PageQuery.extend(ActiveProfileQuery.shape);

/** How long a recording's file links work: a long recording can be watched (and sought in) to its end. */
export const RECORDING_LINK_TTL_SECONDS = 4 * 3600;

/**
 * Links to a completed recording's file, served by the control plane from the storage (range requests, so a
 * player seeks): `url` to play in the page, `downloadUrl` to save it (as an attachment named after the object).
 * Both are capabilities until `expiresAt`, like a pre-signed URL; ask again for fresh ones.
 */
export const RecordingPlayback = z.object({
  /** The file, inline; absolute path on the API's origin. */
  url: z.string(),
  /** The file as an attachment. */
  downloadUrl: z.string(),
  expiresAt: Timestamp,
  contentType: z.string(),
  /** Whether a browser can play it: MP4 yes, MKV no (download it). */
  playable: z.boolean(),
  /** Why it does not play in a browser, when it does not. */
  reason: z.string().nullable(),
});
export type RecordingPlayback = z.infer<typeof RecordingPlayback>;

export const RECORDING_PLAYBACK_MESSAGES = {
  notCompleted: (state: RecordingState) =>
    state === 'Error'
      ? 'The recording ended in Error: it has no file to play'
      : `The recording is ${state === 'Uploading' ? 'still uploading' : 'still recording'}: it plays once Completed`,
  noObject: 'The recording has no file in the storage',
  mkv: 'Browsers cannot play MKV files: download it to watch it in a desktop player',
  badLink: 'This recording link is not valid or has expired: open the recording again for a fresh one',
} as const;

const fileQuery = z.strictObject({
  token: z.string({ error: 'token is required' }).max(200, 'token must be at most 200 characters'),
});

const streamParams = z.strictObject({ streamId: Id });

export const recordingRoutes = {
  create: defineRoute({
    method: 'POST',
    path: '/recordings',
    summary:
      "Record a stream to a storage of the stream's account; it starts in state Recording (an autostarting one " +
      'records each time the stream ingests)',
    tag: 'recordings',
    auth: 'user',
    body: RecordingCreate,
    response: Recording,
    status: 201,
    errors: [404],
  }),
  list: defineRoute({
    method: 'GET',
    path: '/recordings',
    summary:
      "The caller's recordings (ADMIN: every account's), autostarting first, paged; total in X-Total-Count. " +
      'profile=ACTIVE answers those Recording or Uploading.',
    tag: 'recordings',
    auth: 'user',
    query: RecordingListQuery,
    response: z.array(Recording),
  }),
  listByStream: defineRoute({
    method: 'GET',
    path: '/recordings/stream/:streamId',
    summary: "A stream's recordings, autostarting first; profile=ACTIVE answers those Recording or Uploading",
    tag: 'recordings',
    auth: 'user',
    params: streamParams,
    query: ActiveProfileQuery,
    response: z.array(Recording),
    errors: [404],
  }),
  get: defineRoute({
    method: 'GET',
    path: '/recordings/:id',
    summary: 'One recording',
    tag: 'recordings',
    auth: 'user',
    params: IdParams,
    response: Recording,
    errors: [404],
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/recordings/:id',
    summary:
      'Change file name, storage, callback URI and capture (used from the next start); file format and autostart are fixed',
    tag: 'recordings',
    auth: 'user',
    params: IdParams,
    body: RecordingUpdate,
    response: Recording,
    errors: [404],
  }),
  stop: defineRoute({
    method: 'PUT',
    path: '/recordings/:id/stop',
    summary:
      'Ask the node to stop (only in state Recording, else 409); it then uploads the file. Asking again changes nothing.',
    tag: 'recordings',
    auth: 'user',
    params: IdParams,
    response: Recording,
    errors: [404, 409],
  }),
  playback: defineRoute({
    method: 'POST',
    path: '/recordings/:id/playback',
    summary:
      "Links to play and download a Completed recording's file (valid 4 hours; 409 while Recording or Uploading, " +
      'or in Error); `playable` is false for MKV, which browsers cannot play',
    tag: 'recordings',
    auth: 'user',
    params: IdParams,
    response: RecordingPlayback,
    errors: [404, 409],
  }),
  file: defineRoute({
    method: 'GET',
    path: '/recordings/:id/file',
    summary:
      "A recording's file from its storage, with the token of a playback link (no other credential): byte ranges " +
      'answered 206, so players seek; 403 for a bad or expired token',
    tag: 'recordings',
    auth: 'public',
    params: IdParams,
    query: fileQuery,
    response: z.custom<unknown>(() => true).meta({ description: 'The file bytes (video/mp4 or video/x-matroska)' }),
    errors: [403, 404, 416],
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/recordings/:id',
    summary: 'Delete a recording (only in Completed or Error, else 409)',
    tag: 'recordings',
    auth: 'user',
    params: IdParams,
    response: null,
    errors: [404, 409],
  }),
};

/** Node-facing: what a node reports about a recording of a stream it serves (any field may be left out). */
export const RecordingStateReport = z.strictObject({
  id: z.string().min(1, 'Report id is required').max(128, 'Report id must be at most 128 characters'),
  at: Timestamp.optional(),
  kind: z.literal('recording-state'),
  recordingId: Id,
  state: z.enum(RECORDING_STATES).optional(),
  duration: z.number().min(0, 'duration must be at least 0').optional(),
  length: z.number().min(0, 'length must be at least 0').optional(),
  uploaded: z.number().min(0, 'uploaded must be at least 0').optional(),
  /** The key of the file in the storage's bucket, once the node knows it (recording.completed carries it). */
  objectKey: z.string().min(1).max(1024, 'objectKey must be at most 1024 characters').optional(),
  messages: z
    .array(z.strictObject({ level: StatusMessage.shape.level, text: z.string().min(1).max(1000) }))
    .max(20)
    .optional(),
  /**
   * The run was cut while its push went on (the file so far is uploaded): a recording nobody stopped goes on in a
   * continuation the control plane creates, recording the stream again as soon as it is live.
   */
  interrupted: z.literal(true).optional(),
  /** What cut it: the node's restart (also when absent), or a file the node could not write (its disk full). */
  interruptedBy: z.enum(['restart', 'write']).optional(),
});
export type RecordingStateReport = z.infer<typeof RecordingStateReport>;

/** Where a node uploads a recording (the storage's credentials, for the node only). */
export const UploadTarget = z.object({
  type: z.enum(['AmazonS3', 'AmazonS3Compatible']),
  bucket: z.string(),
  path: z.string().nullable(),
  regionName: z.string().nullable(),
  endpoint: z.string().nullable(),
  accessKeyId: z.string(),
  secretAccessKey: z.string(),
});
export type UploadTarget = z.infer<typeof UploadTarget>;

/** Node-facing: a recording the node should run (or finish), with what it needs to name and upload files. */
export const NodeRecording = z.object({
  id: Id,
  streamId: Id,
  /** For `{streamName}`. */
  streamName: z.string(),
  /** The template; render each file's name with `renderFileName`. */
  fileName: z.string(),
  fileFormat: z.enum(RECORDING_FORMATS),
  autostart: z.boolean(),
  capture: CaptureView,
  state: z.enum(RECORDING_STATES),
  stopRequested: z.boolean(),
  callbackUri: z.string().nullable(),
  /** Null when the storage's secret cannot be decrypted (report Error). */
  storage: UploadTarget.nullable(),
});
export type NodeRecording = z.infer<typeof NodeRecording>;

export const nodeRecordingRoutes = {
  recordings: defineRoute({
    method: 'GET',
    path: '/node/recordings',
    summary:
      "The recordings the calling node should run or finish on the streams it serves: Recording or Uploading, and autostarting ones not stopped; with the storage's credentials",
    tag: 'node-facing',
    auth: 'node',
    response: z.array(NodeRecording),
  }),
};
