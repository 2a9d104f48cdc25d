import { z } from 'zod';
import { Id, IdParams, int32, Timestamp } from './common.js';
import { GeoPoint } from './nodes.js';
import { OutputListQuery, StreamOutput, StreamOutputCreate, StreamOutputUpdate } from './outputs.js';
import { defineRoute } from './routes.js';
import { AccessTokenRotate, PreviewCredential, RotatedAccessToken } from './stream-credentials.js';
import { callbackUri, StatusMessage, Streamer } from './stream-fields.js';
import { AccessMode, type InputFormat, StreamInputSummary, streamListRoute } from './stream-list.js';
import { Scte35Mode, TranscodeTrack, TranscodeTracks } from './transcode.js';

// A stream: its formats, what its dashboard reads, the requests that create and change it, and the routes of a
// stream and its outputs. Outputs' types are in outputs.ts, the node-facing side in node-streams.ts.

/** The formats the media nodes take a push in: the only ones a stream is created with (docs/decisions.md). */
export const PUSH_FORMATS = ['WebRTC', 'RTMP', 'RTSP', 'SRT'] as const satisfies readonly InputFormat[];
export const PushFormat = z.enum(PUSH_FORMATS, {
  error: 'Format must be WebRTC, RTMP, RTSP or SRT: the media nodes take no other push',
});
export type PushFormat = z.infer<typeof PushFormat>;
/**
 * The formats a stream is created in: the push formats, and Internode (a stream whose source is another
 * stream on another node, pulled by the node it is placed on: docs/decisions.md, "Internode streams").
 */
export const STREAM_FORMATS = [...PUSH_FORMATS, 'Internode'] as const satisfies readonly InputFormat[];
export const StreamFormat = z.enum(STREAM_FORMATS, {
  error: 'Format must be WebRTC, RTMP, RTSP, SRT or Internode: the media nodes take no other stream',
});
export type StreamFormat = z.infer<typeof StreamFormat>;
/** The wider format list some payloads carry. */
export const WIDER_FORMATS = ['WRTS', 'HESP', 'HLS', 'CMAF', 'HLS_CMAF', 'DASH_CMAF'] as const;

export const CAPTION_MAX = 255;
export const ACCESS_TOKEN_MAX = 128;
export const STREAM_CREATION_DEFAULTS = { format: 'WebRTC', output: 'AdjustableTranscode', access: 'Public' } as const;

/** The ladder a new adjustable-transcoding stream starts with (bitrates in kbps). */
export const DEFAULT_ADJUSTABLE_TRACKS: TranscodeTrack[] = [
  {
    type: 'H264',
    width: 1280,
    height: 720,
    framerate: 30,
    settings: { bitrate: 2000, speedPreset: 'superfast', tune: 'zerolatency', keyIntMax: 60 },
  },
  {
    type: 'H264',
    width: 854,
    height: 480,
    framerate: 30,
    settings: { bitrate: 1200, speedPreset: 'superfast', tune: 'zerolatency', keyIntMax: 60 },
  },
  { type: 'VP8', width: 1280, height: 720, framerate: 30, settings: { bitrate: 2000, keyMaxDist: 60 } },
  { type: 'VP8', width: 854, height: 480, framerate: 30, settings: { bitrate: 1200, keyMaxDist: 60 } },
  { type: 'AAC', rate: 48000, channels: 2, settings: { bitrate: 128 } },
  { type: 'Opus', rate: 48000, channels: 2, settings: { bitrate: 128 } },
];

/** Where to push: WebRTC signals over WHIP, Internode names a node, the others have a uri. */
export const InputConnection = z.union([
  z.object({ signallingUri: z.string() }),
  z.object({ hostname: z.string(), streamNode: z.string() }),
  z.object({ uri: z.string() }),
]);
export type InputConnection = z.infer<typeof InputConnection>;

/**
 * The transcode configuration as the stream carries it. The overlay image itself is served only by
 * GET /inputs/{id}/output (see transcode.ts), so the dashboard's poll stays small.
 */
export const StreamOutputConfig = z.object({
  version: z.literal(2),
  passthrough: z.boolean(),
  scte35: z.object({ mode: Scte35Mode }).optional(),
  epochTimeEncoder: z.object({ enabled: z.boolean() }).optional(),
  overlay: z.object({ offsetX: z.number(), offsetY: z.number() }).nullable().optional(),
  tracks: z.array(TranscodeTrack),
});

/** A node group of the node serving a stream, as the stream's dashboard shows it. */
export const ServingNodeGroup = z.object({
  id: Id,
  name: z.string(),
  assignment: z.enum(['Common', 'Ingestion', 'Outgoing']),
  /** Null: the streaming cloud's own group. */
  ownerId: Id.nullable(),
});
export type ServingNodeGroup = z.infer<typeof ServingNodeGroup>;

/**
 * The node a stream is assigned to, with its groups as the caller may see them: a USER sees only its own
 * groups (the cloud's are not listed to customers, as on the node-group screens), an ADMIN sees all.
 */
export const ServingNode = z.object({ id: Id, name: z.string(), groups: z.array(ServingNodeGroup) });
export type ServingNode = z.infer<typeof ServingNode>;

export const InternodeSourceInfo = z.object({ id: Id, name: z.string(), streamNode: z.string().nullable() });
export type InternodeSourceInfo = z.infer<typeof InternodeSourceInfo>;

/** A stream as its dashboard reads it: the list's row (stream-list.ts) and the detail. */
export const StreamInput = StreamInputSummary.extend({
  /** Only for private access modes. */
  accessToken: z.string().nullable(),
  /** When the access token was last rotated; null: never (the token made with the stream). */
  accessTokenRotatedAt: Timestamp.nullable(),
  callbackUri: z.string().nullable(),
  streamer: z.object({ ipAddress: z.string().nullable(), geoLocation: GeoPoint.nullable() }),
  gslb: z.boolean(),
  parameters: z.record(z.string(), z.unknown()),
  statusMessages: z.array(StatusMessage),
  /** Null while Pending without a node. */
  connection: InputConnection.nullable(),
  /** Null while Pending without a node. */
  servingNode: ServingNode.nullable(),
  /**
   * An Internode stream's source: the stream it is pulled from (`name`) and the node that stream is on
   * (`streamNode`, null while it has none). Null for every other format, and once the source is deleted.
   */
  source: InternodeSourceInfo.nullable(),
  output: StreamOutputConfig,
  updatedAt: Timestamp,
});
export type StreamInput = z.infer<typeof StreamInput>;

/** An Internode stream is pulled, never pushed: a GSLB ingest endpoint would only move it to wherever a push went. */
export const INTERNODE_NO_GSLB = 'An Internode stream takes no push: it has no GSLB endpoint';

/** What an Internode stream is created from: a stream the caller may see, by its name and the node it is on. */
export const InternodeSource = z.strictObject({
  streamNode: z
    .string()
    .trim()
    .min(1, 'Stream node is required')
    .max(200, 'Stream node must be at most 200 characters'),
  name: z.string().trim().min(1, 'Stream name is required').max(200, 'Stream name must be at most 200 characters'),
});
export type InternodeSource = z.infer<typeof InternodeSource>;

export const StreamInputCreate = z
  .strictObject({
    format: StreamFormat.default(STREAM_CREATION_DEFAULTS.format),
    /** Internode only (and required for it): the stream pulled. */
    source: InternodeSource.optional(),
    access: AccessMode.default(STREAM_CREATION_DEFAULTS.access),
    /** Only for Private; blank means generated by the server. */
    accessToken: z
      .string()
      .trim()
      .max(ACCESS_TOKEN_MAX, `Access token must be at most ${ACCESS_TOKEN_MAX} characters`)
      .regex(/^[\w.~-]*$/, 'Access token may hold letters, digits and . _ ~ - only')
      .optional(),
    caption: z.string().trim().max(CAPTION_MAX, `Caption must be at most ${CAPTION_MAX} characters`).optional(),
    gslb: z.boolean().default(false),
    callbackUri: callbackUri.optional(),
    streamer: Streamer.optional(),
    output: z
      .strictObject({
        version: z.literal(2).default(2),
        passthrough: z.boolean(),
        tracks: TranscodeTracks.optional(),
      })
      .default({ version: 2, passthrough: false }),
    /** ADMIN only: create for another account. */
    ownerId: Id.optional(),
  })
  .superRefine((body, context) => {
    if (body.format === 'Internode' && !body.source)
      context.addIssue({ code: 'custom', path: ['source'], message: 'An Internode stream needs a source stream' });
    if (body.format === 'Internode' && body.gslb)
      context.addIssue({ code: 'custom', path: ['gslb'], message: INTERNODE_NO_GSLB });
    if (body.format !== 'Internode' && body.source)
      context.addIssue({ code: 'custom', path: ['source'], message: 'Only an Internode stream has a source stream' });
  });
export type StreamInputCreate = z.output<typeof StreamInputCreate>;
export type StreamInputCreateDraft = z.input<typeof StreamInputCreate>;

const creationOnly = (field: string) =>
  z.never({ error: `${field} can be set only when the stream is created` }).optional();

/** Only state (Idle = stop), streamer and caption change after creation. */
export const StreamInputUpdate = z.strictObject({
  state: z.literal('Idle', { error: 'state can only be set to Idle (stop)' }).optional(),
  streamer: Streamer.optional(),
  caption: z.string().trim().max(CAPTION_MAX, `Caption must be at most ${CAPTION_MAX} characters`).optional(),
  format: creationOnly('format'),
  access: creationOnly('access'),
  accessToken: creationOnly('accessToken'),
  gslb: creationOnly('gslb'),
  callbackUri: creationOnly('callbackUri'),
  output: creationOnly('output'),
  ownerId: creationOnly('ownerId'),
});
export type StreamInputUpdate = z.output<typeof StreamInputUpdate>;

export const Location = z.object({ ipAddress: z.string(), description: z.string(), geo: GeoPoint });
export type Location = z.infer<typeof Location>;

export const TrackInfo = z.object({
  idx: int32('idx'),
  type: z.enum(['Video', 'Audio']),
  codec: z.string(),
  width: int32('width').nullable(),
  height: int32('height').nullable(),
  bps: z.number().nullable(),
  channels: int32('channels').nullable(),
  rate: z.number().nullable(),
});
export type TrackInfo = z.infer<typeof TrackInfo>;

export const TrackSource = z.enum(['incoming', 'outgoing']);
export type TrackSource = z.infer<typeof TrackSource>;

export const IngressEndpoint = z.object({ streamId: Id, name: z.string(), connection: z.object({ uri: z.string() }) });
export type IngressEndpoint = z.infer<typeof IngressEndpoint>;

const streamIdParams = z.strictObject({ streamId: Id });

/** How a token is rotated: a stream's ingest token and an output's viewer token alike. */
const ROTATES_TOKEN = {
  auth: 'user' as const,
  revealsSecret: true,
  params: IdParams,
  body: AccessTokenRotate,
  response: RotatedAccessToken,
  errors: [404, 409],
};

export const streamRoutes = {
  list: streamListRoute,
  create: defineRoute({
    method: 'POST',
    path: '/inputs',
    summary: 'Register a stream input; it is assigned to the nearest enabled and opened node, or stays Pending',
    tag: 'streams',
    auth: 'user',
    body: StreamInputCreate,
    response: StreamInput,
    status: 201,
    errors: [404],
  }),
  get: defineRoute({
    method: 'GET',
    path: '/inputs/:id',
    summary: 'One stream input',
    tag: 'streams',
    auth: 'user',
    params: IdParams,
    response: StreamInput,
    errors: [404],
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/inputs/:id',
    summary: 'Change caption or streamer, or stop (state Idle; only in Ingestion, Fallback or Pending, else 409)',
    tag: 'streams',
    auth: 'user',
    params: IdParams,
    body: StreamInputUpdate,
    response: StreamInput,
    errors: [404, 409],
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/inputs/:id',
    summary: 'Delete a stream input and everything attached to it, in one transaction',
    tag: 'streams',
    auth: 'user',
    params: IdParams,
    response: null,
    errors: [404],
  }),
  createOutput: defineRoute({
    method: 'POST',
    path: '/outputs',
    summary: 'Create a viewer output (playback endpoint) of a stream',
    tag: 'outputs',
    auth: 'user',
    body: StreamOutputCreate,
    response: StreamOutput,
    status: 201,
    errors: [404],
  }),
  listOutputs: defineRoute({
    method: 'GET',
    path: '/outputs',
    summary: "A stream's outputs, paged; total in X-Total-Count",
    tag: 'outputs',
    auth: 'user',
    query: OutputListQuery,
    response: z.array(StreamOutput),
    errors: [404],
  }),
  createPreview: defineRoute({
    method: 'POST',
    path: '/inputs/:id/preview',
    summary: "A short-lived credential for the console's preview player, valid for this stream's outputs only",
    tag: 'streams',
    auth: 'user',
    revealsSecret: true,
    params: IdParams,
    response: PreviewCredential,
    errors: [404],
  }),
  rotateAccessToken: defineRoute({
    method: 'POST',
    path: '/inputs/:id/access-token/rotate',
    summary:
      "Replace a private stream's ingest access token; the old one is still taken for overlapMinutes (409 for a Public stream)",
    tag: 'streams',
    ...ROTATES_TOKEN,
  }),
  rotateOutputAccessToken: defineRoute({
    method: 'POST',
    path: '/outputs/:id/access-token/rotate',
    summary:
      "Replace a private output's viewer token; the old one is still taken for overlapMinutes (409 for a public output)",
    tag: 'outputs',
    ...ROTATES_TOKEN,
  }),
  clearOutputSessions: defineRoute({
    method: 'DELETE',
    path: '/outputs/:id/sessions',
    summary: "Clear an output's viewer sessions",
    tag: 'outputs',
    auth: 'user',
    params: IdParams,
    response: null,
    errors: [404],
  }),
  updateOutput: defineRoute({
    method: 'PUT',
    path: '/outputs/:id',
    summary:
      "Change a viewer output's access policy (Public, Private or Signed) or HLS latency (Standard or Low), also while it plays",
    tag: 'outputs',
    auth: 'user',
    params: IdParams,
    body: StreamOutputUpdate,
    response: StreamOutput,
    // The answer carries the output's static viewer token.
    revealsSecret: true,
    errors: [404],
  }),
  deleteOutput: defineRoute({
    method: 'DELETE',
    path: '/outputs/:id',
    summary: 'Delete a viewer output',
    tag: 'outputs',
    auth: 'user',
    params: IdParams,
    response: null,
    errors: [404],
  }),
  location: defineRoute({
    method: 'GET',
    path: '/info/location',
    summary: "Where an IP address is (the caller's address when none is given); 404 when unknown or private",
    tag: 'info',
    auth: 'user',
    query: z.strictObject({ ipAddress: z.union([z.ipv4(), z.ipv6()]).optional() }),
    response: Location,
    errors: [404],
  }),
  streamInfo: defineRoute({
    method: 'GET',
    path: '/info/stream/:streamId/:type',
    summary: 'Track information of a stream by source: incoming or outgoing',
    tag: 'info',
    auth: 'user',
    params: z.strictObject({ streamId: Id, type: TrackSource }),
    response: z.array(TrackInfo),
    errors: [404],
  }),
  createIngress: defineRoute({
    method: 'POST',
    path: '/gslb/input',
    summary: 'Provision the global load-balancing ingest endpoint of a stream (beta)',
    tag: 'gslb',
    auth: 'user',
    body: streamIdParams,
    response: IngressEndpoint,
    status: 201,
    errors: [404, 409],
  }),
  getIngress: defineRoute({
    method: 'GET',
    path: '/gslb/input/stream/:streamId',
    summary: "A stream's global load-balancing ingest endpoint",
    tag: 'gslb',
    auth: 'user',
    params: streamIdParams,
    response: IngressEndpoint,
    errors: [404],
  }),
};
/** Where the control plane answers WHIP at a stream's GSLB URL (outside /api/v1): a 307 to a node's WHIP URL. */
export const GSLB_WHIP_PATH = '/whip/:name';
