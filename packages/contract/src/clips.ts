import { z } from 'zod';
import { Id, IdParams, Timestamp } from './common.js';
import { DVR_WINDOW_MAX_MINUTES } from './outputs.js';
import { CallbackUriField, UploadTarget } from './recordings.js';
import { defineRoute } from './routes.js';

/**
 * Clips (issue 35): a part of a live stream's rewind window (DVR) or of a completed recording, cut without
 * re-encoding into one MP4 in a storage of the stream's account. A cut starts on a keyframe: the clip's first
 * frame may be up to one GOP (keyframe interval) before `from`. The node holding the stream cuts it; states go
 * Pending → Processing → Ready, or Error with the reason.
 */

/** A clip is at most this long (`to - from`), seconds. */
export const CLIP_MAX_SECONDS = 600;
export const CLIP_CAPTION_MAX = 255;
export const CLIP_STATES = ['Pending', 'Processing', 'Ready', 'Error'] as const;
export type ClipState = (typeof CLIP_STATES)[number];
/** Links to a Ready clip's file work this long. */
export const CLIP_LINK_TTL_SECONDS = 3600;

export const CLIP_MESSAGES = {
  oneSource: 'Give exactly one of streamId and recordingId',
  streamTime: "A stream clip's from and to are date-times (ISO 8601) of the stream's rewind window",
  recordingTime: "A recording clip's from and to are seconds from the recording's start",
  toAfterFrom: 'to must be after from',
  tooLong: `A clip is at most ${CLIP_MAX_SECONDS / 60} minutes long`,
  captionMax: `Caption must be at most ${CLIP_CAPTION_MAX} characters`,
  inFuture: 'to must not be in the future: a clip is cut from what the stream has already sent',
  beforeWindow: `from must be within the rewind window (at most ${DVR_WINDOW_MAX_MINUTES} minutes ago)`,
  recordingWithoutFile: 'The recording has no file in the storage to cut the clip from',
  recordingNotCompleted: (state: string) =>
    `The recording is ${state === 'Uploading' ? 'still uploading' : state === 'Recording' ? 'still recording' : 'in Error'}: clips are cut from a Completed recording`,
  beyondRecording: (duration: number) => `to must be within the recording (${duration.toFixed(1)} s long)`,
  noStorage: 'storageId is required: the stream has no recording whose storage the clip could use',
  storageOfAnotherAccount: "The storage must belong to the stream's account",
  noNode: 'The stream is on no media node: nothing can cut the clip',
  notFinished: (state: ClipState) => `The clip is ${state}: it can be deleted once Ready or in Error`,
  notReady: (state: ClipState) =>
    state === 'Error' ? 'The clip ended in Error: it has no file' : `The clip is ${state}: it plays once Ready`,
  badLink: 'This clip link is not valid or has expired: open the clip again for a fresh one',
  /** Said in the API docs and the console: cuts are on keyframes. */
  keyframeNote: 'Cut without re-encoding on keyframes: the clip may start up to one keyframe interval (GOP) early.',
} as const;

const ClipTime = z.union([z.number().min(0, 'must be at least 0').max(1e9, 'must be at most 1000000000'), Timestamp], {
  error: 'must be a date-time (stream clips) or seconds (recording clips)',
});

const seconds = (value: number | string): number =>
  typeof value === 'number' ? value : new Date(value).getTime() / 1000;

export const ClipCreate = z
  .strictObject({
    streamId: Id.optional(),
    recordingId: Id.optional(),
    /** Stream clips: ISO date-times (the player's EXT-X-PROGRAM-DATE-TIME); recording clips: seconds. */
    from: ClipTime,
    to: ClipTime,
    caption: z
      .string({ error: 'Caption must be text' })
      .trim()
      .max(CLIP_CAPTION_MAX, CLIP_MESSAGES.captionMax)
      .default(''),
    /** Where the clip goes; absent: the recording's storage, or that of the stream's latest recording. */
    storageId: Id.optional(),
    /** Called with clip.ready and clip.error (signed webhooks). */
    callbackUri: CallbackUriField.optional(),
  })
  .superRefine((value, context) => {
    const sources = [value.streamId, value.recordingId].filter((id) => id !== undefined).length;
    if (sources !== 1) {
      context.addIssue({ code: 'custom', path: ['streamId'], message: CLIP_MESSAGES.oneSource });
      return;
    }
    const wanted = value.streamId !== undefined ? 'string' : 'number';
    for (const field of ['from', 'to'] as const)
      if (typeof value[field] !== wanted)
        context.addIssue({
          code: 'custom',
          path: [field],
          message: wanted === 'string' ? CLIP_MESSAGES.streamTime : CLIP_MESSAGES.recordingTime,
        });
    if (typeof value.from !== wanted || typeof value.to !== wanted) return;
    const length = seconds(value.to) - seconds(value.from);
    if (!(length > 0)) context.addIssue({ code: 'custom', path: ['to'], message: CLIP_MESSAGES.toAfterFrom });
    else if (length > CLIP_MAX_SECONDS)
      context.addIssue({ code: 'custom', path: ['to'], message: CLIP_MESSAGES.tooLong });
  });
export type ClipCreate = z.output<typeof ClipCreate>;
export type ClipCreateInput = z.input<typeof ClipCreate>;

export const Clip = z.object({
  id: Id,
  streamId: Id,
  /** Set for a clip of a recording (null once that recording is deleted, or for a stream clip). */
  recordingId: Id.nullable(),
  /** Null once the storage is deleted (the clip's file is then out of reach). */
  storageId: Id.nullable(),
  caption: z.string(),
  /** As asked: date-times for a stream clip, seconds for a recording clip. */
  from: z.union([Timestamp, z.number()]),
  to: z.union([Timestamp, z.number()]),
  state: z.enum(CLIP_STATES),
  /** Why it ended in Error. */
  message: z.string().nullable(),
  /** Seconds of the file (from the keyframe at or before `from`), once Ready. */
  duration: z.number().nullable(),
  /** Bytes of the file, once Ready. */
  size: z.number().nullable(),
  objectKey: z.string().nullable(),
  callbackUri: z.string().nullable(),
  createdAt: Timestamp,
  /** When it became Ready or Error. */
  finishedAt: Timestamp.nullable(),
});
export type Clip = z.infer<typeof Clip>;

export const ClipListQuery = z.strictObject({ streamId: Id });

/** What the Ready clips kept in one storage take there: clips are stored in the account's own buckets. */
export const ClipStorageUse = z.object({
  storageId: Id,
  clips: z.number().int(),
  /** Bytes of those clips' files. */
  bytes: z.number(),
});
export type ClipStorageUse = z.infer<typeof ClipStorageUse>;

/** Links to a Ready clip's MP4, served by the control plane from the storage (as recordings' are). */
export const ClipPlayback = z.object({
  url: z.string(),
  downloadUrl: z.string(),
  /**
   * The clip's storyboard (WebVTT whose cues name tiles of its sprite sheets, `#xywh=`), on the clip's timeline from
   * 0, with the same token; 404 for a clip cut before storyboards were made.
   */
  storyboardUrl: z.string(),
  expiresAt: Timestamp,
});
export type ClipPlayback = z.infer<typeof ClipPlayback>;

/** The files of a clip's storyboard: its WebVTT and its sheets. */
export const CLIP_STORYBOARD_FILE = /^(storyboard\.vtt|storyboard-\d{1,4}\.jpg)$/;
const storyboardParams = z.strictObject({
  id: Id,
  file: z.string().regex(CLIP_STORYBOARD_FILE, 'file must be storyboard.vtt or storyboard-<n>.jpg'),
});

const fileQuery = z.strictObject({
  token: z.string({ error: 'token is required' }).max(200, 'token must be at most 200 characters'),
});

export const clipRoutes = {
  create: defineRoute({
    method: 'POST',
    path: '/clips',
    summary:
      "Cut a clip (at most 10 minutes) from a stream's rewind window (from/to date-times) or a Completed recording " +
      '(from/to seconds) into a storage of its account; it starts Pending and becomes Ready (or Error). ' +
      CLIP_MESSAGES.keyframeNote,
    tag: 'clips',
    auth: 'user',
    body: ClipCreate,
    response: Clip,
    status: 201,
    errors: [404, 409],
  }),
  list: defineRoute({
    method: 'GET',
    path: '/clips',
    summary: "A stream's clips, newest first (at most 200)",
    tag: 'clips',
    auth: 'user',
    query: ClipListQuery,
    response: z.array(Clip),
    errors: [404],
  }),
  storageUse: defineRoute({
    method: 'GET',
    path: '/clips/storage-use',
    summary:
      "Per storage, the Ready clips kept there and the bytes they take: the caller's storages (every account's for an " +
      'ADMIN); a storage with none is not listed',
    tag: 'clips',
    auth: 'user',
    response: z.array(ClipStorageUse),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/clips/:id',
    summary: 'One clip',
    tag: 'clips',
    auth: 'user',
    params: IdParams,
    response: Clip,
    errors: [404],
  }),
  playback: defineRoute({
    method: 'POST',
    path: '/clips/:id/playback',
    summary: "Links to play and download a Ready clip's MP4 (valid 1 hour; 409 before Ready or in Error)",
    tag: 'clips',
    auth: 'user',
    params: IdParams,
    response: ClipPlayback,
    errors: [404, 409],
  }),
  file: defineRoute({
    method: 'GET',
    path: '/clips/:id/file',
    summary:
      "A clip's MP4 from its storage, with the token of a playback link (no other credential); byte ranges answered 206",
    tag: 'clips',
    auth: 'public',
    params: IdParams,
    query: fileQuery,
    response: z.custom<unknown>(() => true).meta({ description: 'The file bytes (video/mp4)' }),
    errors: [403, 404, 416],
  }),
  storyboard: defineRoute({
    method: 'GET',
    path: '/clips/:id/storyboard/:file',
    summary:
      "A Ready clip's storyboard from its storage, with the token of a playback link: its WebVTT (the sheets' URIs " +
      'carrying the token) or one of its JPEG sprite sheets',
    tag: 'clips',
    auth: 'public',
    params: storyboardParams,
    query: fileQuery,
    response: z.custom<unknown>(() => true).meta({ description: 'text/vtt or image/jpeg' }),
    errors: [403, 404],
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/clips/:id',
    summary: 'Delete a clip and its file in the storage (only Ready or Error, else 409)',
    tag: 'clips',
    auth: 'user',
    params: IdParams,
    response: null,
    errors: [404, 409],
  }),
};

/** Node-facing: what a node reports about a clip it cuts. */
export const ClipStateReport = z.strictObject({
  id: z.string().min(1, 'Report id is required').max(128, 'Report id must be at most 128 characters'),
  at: Timestamp.optional(),
  kind: z.literal('clip-state'),
  clipId: Id,
  state: z.enum(['Processing', 'Ready', 'Error']),
  message: z.string().min(1).max(1000).optional(),
  duration: z.number().min(0, 'duration must be at least 0').max(1e6).optional(),
  size: z.number().min(0, 'size must be at least 0').max(1e13).optional(),
  objectKey: z.string().min(1).max(1024, 'objectKey must be at most 1024 characters').optional(),
});
export type ClipStateReport = z.infer<typeof ClipStateReport>;

/** Node-facing: a clip for the calling node to cut, with where to put it. */
export const NodeClip = z.object({
  id: Id,
  streamId: Id,
  state: z.enum(CLIP_STATES),
  /** A stream clip: from the node's rewind window, by program date-time. */
  window: z.object({ from: Timestamp, to: Timestamp }).nullable(),
  /** A recording clip: the recording's object, and the seconds to cut. */
  recording: z
    .object({ objectKey: z.string(), storage: UploadTarget.nullable(), from: z.number(), to: z.number() })
    .nullable(),
  /** The key to write in the target storage. */
  objectKey: z.string(),
  /** Null when the storage's secret cannot be decrypted (report Error). */
  storage: UploadTarget.nullable(),
});
export type NodeClip = z.infer<typeof NodeClip>;

export const nodeClipRoutes = {
  clips: defineRoute({
    method: 'GET',
    path: '/node/clips',
    summary: "The clips the calling node should cut (Pending or Processing), with the storages' credentials",
    tag: 'node-facing',
    auth: 'node',
    response: z.array(NodeClip),
  }),
};
