import { z } from 'zod';
import { Id, IdParams, int32, Timestamp } from './common.js';
import { GeoPoint } from './nodes.js';
import { defineRoute } from './routes.js';
import {
  AccessMode,
  InputFormat,
  OutputModeEnum,
  StreamInputSummary,
  StreamStatus,
  streamListRoute,
} from './stream-list.js';
import { Scte35Mode, TranscodeTrack, TranscodeTracks } from './transcode.js';

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

export const OUTPUTS_PAGE_SIZE = 4;
export const CAPTION_MAX = 255;
export const CALLBACK_URI_MAX = 255;
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

const callbackUri = z
  .url({ protocol: /^https?$/, error: 'Callback URI must be an http(s) URL' })
  .max(CALLBACK_URI_MAX, `Callback URI must be at most ${CALLBACK_URI_MAX} characters`);

export const Streamer = z.strictObject({
  ipAddress: z.union([z.ipv4({ error: 'IP address must be IPv4 or IPv6' }), z.ipv6(), z.literal('')]).optional(),
  geoLocation: GeoPoint.nullable().optional(),
});
export type Streamer = z.infer<typeof Streamer>;

export const StatusMessage = z.object({
  at: Timestamp,
  level: z.enum(['info', 'warning', 'error']),
  text: z.string(),
});
export type StatusMessage = z.infer<typeof StatusMessage>;

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

/** Viewer (playback) formats. */
export const OutputFormat = z.enum(['WebRTC', 'RTMP', 'SRT', 'HLS']);
export type OutputFormat = z.infer<typeof OutputFormat>;

/**
 * Who may watch an output (issue 34): anyone (Public), the holder of its static viewer token (Private), or the
 * holder of a playback token signed with a key of its account (Signed: the static token is refused).
 */
export const OutputAccess = z.enum(['Public', 'Private', 'Signed'], {
  error: 'Access must be Public, Private or Signed',
});
export type OutputAccess = z.infer<typeof OutputAccess>;

/**
 * How an HLS output packages the stream (issue 36): Standard is nginx-rtmp's MPEG-TS playlist (1 s fragments,
 * for players that do not know LL-HLS); Low is the node's LL-HLS packager (fMP4 parts, blocking playlist
 * reloads, preload hints), which every HLS player still plays as ordinary HLS. Only HLS outputs have one.
 */
export const HlsLatency = z.enum(['Standard', 'Low'], { error: 'HLS latency must be Standard or Low' });
export type HlsLatency = z.infer<typeof HlsLatency>;
export const HLS_LATENCY_ONLY_FOR_HLS = 'HLS latency is only for HLS outputs';
/**
 * A new HLS output's latency when its creator does not say (the API's and the Create viewer form's): Low, now that
 * origins and edges package every stream and ladder as LL-HLS; Standard stays for players that need MPEG-TS.
 */
export const DEFAULT_HLS_LATENCY: HlsLatency = 'Low';

/**
 * Live rewind (issue 35): how far back an HLS output's viewers may seek, in minutes (0: off, the live window only).
 * The node keeps that much of the stream on its disk; it needs the node's packaging (HLS latency Low).
 */
export const DVR_WINDOW_MAX_MINUTES = 240;
export const DvrWindowMinutes = z
  .number({ error: 'DVR window must be a number of minutes' })
  .int('DVR window must be a whole number of minutes')
  .min(0, 'DVR window must be at least 0 minutes')
  .max(DVR_WINDOW_MAX_MINUTES, `DVR window must be at most ${DVR_WINDOW_MAX_MINUTES} minutes`);
export const DVR_NEEDS_LOW_LATENCY = 'A DVR window needs HLS latency Low (the node packages the stream)';

export const OutputSession = z.object({
  id: z.string(),
  ipAddress: z.string().nullable(),
  startedAt: Timestamp,
  bytes: z.number(),
});

export const StreamOutput = z.object({
  id: Id,
  streamId: Id,
  format: OutputFormat,
  name: z.string(),
  access: OutputAccess,
  /** An HLS output's packaging; null for every other format. */
  hlsLatency: HlsLatency.nullable(),
  /** An HLS output's live rewind window, minutes (0: off). */
  dvrWindowMinutes: z.number().int(),
  connection: z.object({ uri: z.string().optional(), signallingUri: z.string().optional() }).nullable(),
  viewer: z.object({
    ipAddress: z.string().nullable(),
    geoLocation: GeoPoint.nullable(),
    accessToken: z.string().nullable(),
    /** When the viewer token was last rotated; null: never. */
    accessTokenRotatedAt: Timestamp.nullable(),
  }),
  callbackUri: z.string().nullable(),
  sessions: z.array(OutputSession),
  /** Sessions of the console's own preview player on this output: not viewers, not billed (docs/decisions.md). */
  previews: z.number().int(),
  /**
   * The node that serves this output's viewers (its connection names it): the stream's ingest node, or an
   * edge node of an Outgoing node group that pulls the stream from it; null while the stream has no node.
   */
  node: z.object({ id: Id, name: z.string() }).nullable(),
  createdAt: Timestamp,
});
export type StreamOutput = z.infer<typeof StreamOutput>;

/**
 * A short-lived playback credential for the console's preview of one stream: any of the stream's outputs
 * takes it (`Authorization: Bearer` on WHEP, `?token=` on HLS) in place of the output's viewer token, and
 * the node reports what it plays as a preview session, not a viewer.
 */
export const PreviewCredential = z.object({ token: z.string(), expiresAt: Timestamp });
export type PreviewCredential = z.infer<typeof PreviewCredential>;
/** How long a preview credential is valid; the console asks for a new one before it expires. */
export const PREVIEW_CREDENTIAL_TTL_SECONDS = 600;

export const StreamOutputCreate = z
  .strictObject({
    streamId: Id,
    format: OutputFormat.default('RTMP'),
    /** Absent: Private on a Private stream, else Public (as before outputs had their own policy). */
    access: OutputAccess.optional(),
    /** HLS outputs only; absent: DEFAULT_HLS_LATENCY (Low). */
    hlsLatency: HlsLatency.optional(),
    /** HLS outputs with latency Low (the default) only; absent: 0 (off). */
    dvrWindowMinutes: DvrWindowMinutes.optional(),
    callbackUri: callbackUri.optional(),
    viewer: Streamer.optional(),
  })
  .refine((body) => body.hlsLatency === undefined || body.format === 'HLS', {
    message: HLS_LATENCY_ONLY_FOR_HLS,
    path: ['hlsLatency'],
  })
  .refine((body) => !body.dvrWindowMinutes || (body.hlsLatency ?? DEFAULT_HLS_LATENCY) === 'Low', {
    message: DVR_NEEDS_LOW_LATENCY,
    path: ['dvrWindowMinutes'],
  });
export type StreamOutputCreate = z.output<typeof StreamOutputCreate>;

/**
 * A change of an output's policy or HLS packaging, live: its node applies it at once (viewers it no longer admits
 * are disconnected; an HLS viewer's next playlist comes from the new packaging).
 */
export const StreamOutputUpdate = z
  .strictObject({
    access: OutputAccess.optional(),
    hlsLatency: HlsLatency.optional(),
    dvrWindowMinutes: DvrWindowMinutes.optional(),
  })
  .refine((value) => Object.keys(value).length > 0, { message: 'Nothing to update' });
export type StreamOutputUpdate = z.output<typeof StreamOutputUpdate>;

export const OutputListQuery = z.strictObject({
  streamId: Id,
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(OUTPUTS_PAGE_SIZE),
});

/** How long the token a rotation replaces stays valid beside the new one, in minutes. */
export const TOKEN_OVERLAP_MAX_MINUTES = 1440;
export const TOKEN_OVERLAP_DEFAULT_MINUTES = 10;

/**
 * A rotation of a stream's ingest token or an output's viewer token. Fractions of a minute are allowed (a
 * rule as simple as whole minutes, and what lets a test watch a window end in seconds).
 */
export const AccessTokenRotate = z.strictObject({
  overlapMinutes: z
    .number({ error: 'Overlap must be a number of minutes' })
    .min(0, 'Overlap must be at least 0 minutes')
    .max(TOKEN_OVERLAP_MAX_MINUTES, `Overlap must be at most ${TOKEN_OVERLAP_MAX_MINUTES} minutes (24 hours)`)
    .default(TOKEN_OVERLAP_DEFAULT_MINUTES),
});
export type AccessTokenRotate = z.output<typeof AccessTokenRotate>;

/** The new token, answered once by the rotation (the stream and the output still show the current one). */
export const RotatedAccessToken = z.object({
  accessToken: z.string(),
  rotatedAt: Timestamp,
  /** Until when the replaced token is still taken; null with an overlap of 0 (it stopped at once). */
  previousValidUntil: Timestamp.nullable(),
});
export type RotatedAccessToken = z.infer<typeof RotatedAccessToken>;

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
    auth: 'user',
    revealsSecret: true,
    params: IdParams,
    body: AccessTokenRotate,
    response: RotatedAccessToken,
    errors: [404, 409],
  }),
  rotateOutputAccessToken: defineRoute({
    method: 'POST',
    path: '/outputs/:id/access-token/rotate',
    summary:
      "Replace a private output's viewer token; the old one is still taken for overlapMinutes (409 for a public output)",
    tag: 'outputs',
    auth: 'user',
    revealsSecret: true,
    params: IdParams,
    body: AccessTokenRotate,
    response: RotatedAccessToken,
    errors: [404, 409],
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

/**
 * One variant of a transcoded stream's HLS ladder as its ingest node serves it (what the master playlist
 * lists): reported by that node once the rendition has a fragment, and given to the stream's edges, which
 * write the same master and pull each variant from the ingest node on demand (docs/decisions.md).
 */
export const LadderRendition = z.strictObject({
  /** The variant's path segment (`<key>/index.m3u8`) and, on the ingest node, its nginx name `<input id>_<key>`. */
  key: z.string().regex(/^[ra]\d{1,2}$/, 'key must be r<n> or a<n>'),
  /** The master playlist's BANDWIDTH (b/s). */
  bandwidth: z.number().int().min(0, 'bandwidth must be at least 0'),
  width: z.number().int().min(1).max(16_384).nullable(),
  height: z.number().int().min(1).max(16_384).nullable(),
  /** The master playlist's CODECS (RFC 6381), null when unknown. */
  codecs: z.string().max(200, 'codecs must be at most 200 characters').nullable(),
});
export type LadderRendition = z.infer<typeof LadderRendition>;

/** Node-facing: what a node reports about one input it serves (any field may be left out). */
/** What a capped token's sessions are counted by, as nodes share it: a SHA-256 digest, base64url, 22 characters. */
export const TokenSessionId = z.string().regex(/^[\w-]{22}$/, 'tokenId must be 22 base64url characters');
/** Sessions of capped stream-wide tokens on a stream's other nodes, told to each node (bounded). */
export const TOKEN_SESSIONS_MAX = 10_000;

export const StreamStateReport = z.strictObject({
  id: z.string().min(1, 'Report id is required').max(128, 'Report id must be at most 128 characters'),
  at: Timestamp.optional(),
  kind: z.literal('stream-state'),
  streamId: Id,
  status: z.enum(['Idle', 'Ingestion', 'Error', 'Fallback']).optional(),
  message: z.strictObject({ level: StatusMessage.shape.level, text: z.string().min(1).max(1000) }).optional(),
  /** With status Ingestion: the push that started (its protocol and the publisher's address), for webhooks. */
  push: z
    .strictObject({
      protocol: StreamFormat,
      remoteAddress: z.string().max(64, 'remoteAddress must be at most 64 characters').nullable(),
    })
    .optional(),
  tracks: z
    .strictObject({
      incoming: z.array(TrackInfo.strict()).max(32).optional(),
      outgoing: z.array(TrackInfo.strict()).max(32).optional(),
    })
    .optional(),
  /** The HLS ladder its viewers get now (its transcoder's renditions, top first); null: none (one media playlist). */
  renditions: z.array(LadderRendition).max(16).nullable().optional(),
  outputs: z
    .array(
      z.strictObject({
        outputId: Id,
        sessions: z
          .array(
            z.strictObject({
              id: z.string().min(1).max(128),
              ipAddress: z.string().max(64).nullable(),
              startedAt: Timestamp,
              bytes: z.number().min(0),
              /**
               * A session of a stream-wide playback token that caps its sessions (`maxSessions`): a digest of what the
               * token's sessions are counted by (its jti, or the token), so the stream's other nodes count it too.
               */
              tokenId: TokenSessionId.optional(),
            }),
          )
          .max(10_000),
        /** Preview sessions (the console's player, admitted with a preview credential): counted apart from viewers. */
        previews: z.number().int().min(0, 'previews must be at least 0').max(10_000).optional(),
      }),
    )
    .max(1000)
    .optional(),
});
export type StreamStateReport = z.infer<typeof StreamStateReport>;

/**
 * What a node runs for an input, each part with its own version: a text that changes whenever that part's
 * configuration changes (a digest of it), so a node polling `GET /node/inputs` re-reads only what changed.
 * `config` is the transcode configuration (`/node/inputs/{id}/output`), `snapshots` the snapshot settings,
 * `recordings`, `relays` and `fallbacks` the input's jobs of each kind, `outputs` the outputs listed here.
 */
export const CONFIG_PARTS = ['config', 'snapshots', 'recordings', 'relays', 'fallbacks', 'outputs'] as const;
export type ConfigPart = (typeof CONFIG_PARTS)[number];
export const ConfigVersions = z.object(
  Object.fromEntries(CONFIG_PARTS.map((part) => [part, z.string()])) as Record<ConfigPart, z.ZodString>,
);
export type ConfigVersions = z.infer<typeof ConfigVersions>;

/** A node a stream is pulled from over RTMP (an edge's origin, an Internode stream's source), with the pull's credential. */
const RtmpPullFrom = z.object({
  nodeId: Id,
  nodeName: z.string(),
  hostname: z.string(),
  rtmpPort: z.number().int(),
  credential: z.string(),
});

/**
 * The token a rotation replaced (null: none, or an overlap of 0): taken from new pushes and players until
 * `expiresAt` by the node's clock, and after it only for an HLS session admitted before (docs/decisions.md,
 * "Token rotation").
 */
export const PreviousAccessToken = z.object({ token: z.string(), expiresAt: Timestamp }).nullable();
export type PreviousAccessToken = z.infer<typeof PreviousAccessToken>;

/**
 * What a node verifies an account's signed playback tokens with (issue 34): its keys (revoked ones marked, so
 * their tokens are refused as revoked) and revoked token ids, at a version (AssignedInput.signing names it).
 * HS256 secrets travel here only, on the node-token channel, and are never logged.
 */
export const NodeSigning = z.object({
  version: z.string(),
  keys: z.array(
    z.object({
      kid: z.string(),
      algorithm: z.enum(['ES256', 'Ed25519', 'HS256']),
      /** ES256/Ed25519: the public JWK. */
      publicJwk: z.record(z.string(), z.unknown()).nullable(),
      /** HS256: the secret, base64url. */
      secret: z.string().nullable(),
      revoked: z.boolean(),
    }),
  ),
  revokedTokenIds: z.array(z.string()),
});
export type NodeSigning = z.infer<typeof NodeSigning>;

/** Node-facing: an input as the node that serves it needs to know it (to admit or refuse a push). */
export const AssignedInput = z.object({
  id: Id,
  name: z.string(),
  format: InputFormat,
  status: StreamStatus,
  access: AccessMode,
  accessToken: z.string().nullable(),
  previousAccessToken: PreviousAccessToken,
  outputMode: OutputModeEnum,
  outputs: z.array(
    z.object({
      id: Id,
      name: z.string(),
      format: OutputFormat,
      access: OutputAccess,
      /** An HLS output's packaging (absent: Standard, as before outputs had one). */
      hlsLatency: HlsLatency.optional(),
      /** A Low latency output's rewind window, minutes (absent: off). */
      dvrWindowMinutes: z.number().int().min(0).max(DVR_WINDOW_MAX_MINUTES).optional(),
      accessToken: z.string().nullable(),
      previousAccessToken: PreviousAccessToken,
      /** When the output's sessions were last cleared: the node disconnects its viewers when this changes. */
      sessionsClearedAt: Timestamp.nullable(),
    }),
  ),
  ingressName: z.string().nullable(),
  /** The key preview credentials of this stream are signed with (HMAC-SHA256, base64url); see PreviewCredential. */
  previewKey: z.string(),
  /** The key edge pull credentials of this stream are signed with (the ingest node checks edges' pulls with it); null on an edge. */
  edgeKey: z.string().nullable(),
  /**
   * Null: the calling node ingests this stream. Set: the calling node is an edge that serves only the
   * outputs listed (those assigned to it) and pulls the stream from its origin (ingest) node over RTMP with
   * `credential` (`edge-credential.ts`, short-lived, renewed with every read); it never takes a push for it.
   */
  origin: RtmpPullFrom.extend({
    /**
     * The origin's HLS ladder while it transcodes the stream (null: none): the edge writes the same master
     * playlist and pulls each variant's rendition (`&rendition=<key>`) while its HLS viewers ask for it.
     */
    renditions: z.array(LadderRendition).nullable(),
  }).nullable(),
  /**
   * An Internode stream the calling node ingests: the stream it pulls (over RTMP from that stream's node, with
   * an edge credential of that stream bound to the calling node), and whether the source is live now (the node
   * pulls while it is). Null for every other stream, and while the source has no node.
   */
  source: RtmpPullFrom.extend({ inputId: Id, name: z.string(), live: z.boolean() }).nullable(),
  /**
   * Whose playback signing keys verify the tokens of this stream's Signed outputs (issue 34), and their version:
   * the node reads an account's keys and revoked token ids (GET /node/playback-signing/:id) once per version,
   * not with every read of its inputs (an account may hold thousands of revoked ids and many streams). Null when
   * no output listed here is Signed.
   */
  signing: z.object({ accountId: Id, version: z.string() }).nullable(),
  /**
   * The sessions of this stream's Signed outputs on other nodes that play a stream-wide token capping its sessions
   * (`maxSessions`), by that token (`tokenId`, as nodes report it): counted with the node's own, so a token's cap
   * holds across the nodes serving the stream's outputs. Absent when there are none.
   */
  tokenSessions: z
    .array(z.object({ tokenId: TokenSessionId, sessionId: z.string(), startedAt: Timestamp }))
    .max(TOKEN_SESSIONS_MAX)
    .optional(),
  versions: ConfigVersions,
});
export type AssignedInput = z.infer<typeof AssignedInput>;

export const nodeStreamRoutes = {
  inputs: defineRoute({
    method: 'GET',
    path: '/node/inputs',
    summary: 'The inputs assigned to the calling node, with their outputs and access tokens',
    tag: 'node-facing',
    auth: 'node',
    response: z.array(AssignedInput),
  }),
  claimIngress: defineRoute({
    method: 'POST',
    path: '/node/ingress/claim',
    summary:
      "A push to a stream's GSLB name (as+<uuid>) reached the calling node: a stream that is not live moves to it " +
      '(403 for a node that may not take it, 404 for an unknown name, 409 while it is live)',
    tag: 'node-facing',
    auth: 'node',
    body: z.strictObject({
      name: z.string().min(1, 'Name is required').max(200, 'Name must be at most 200 characters'),
    }),
    response: AssignedInput,
    errors: [403, 404, 409],
  }),
  playbackSigning: defineRoute({
    method: 'GET',
    path: '/node/playback-signing/:id',
    summary:
      "An account's playback signing keys and revoked token ids, as the calling node verifies its Signed outputs' " +
      'tokens with them (404 unless the node serves a stream of the account)',
    tag: 'node-facing',
    auth: 'node',
    params: IdParams,
    response: NodeSigning,
    // HS256 secrets are in the answer.
    revealsSecret: true,
    errors: [404],
  }),
};

/** Where the control plane answers WHIP at a stream's GSLB URL (outside /api/v1): a 307 to a node's WHIP URL. */
export const GSLB_WHIP_PATH = '/whip/:name';
