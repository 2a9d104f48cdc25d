import { z } from 'zod';
import { Id, Timestamp } from './common.js';
import { GeoPoint } from './nodes.js';
import { callbackUri, Streamer } from './stream-fields.js';

// A stream's viewer outputs (playback endpoints): their formats, access policy, HLS packaging and live rewind
// window, and the requests that create, change and list them (the routes are in streams.ts, `streamRoutes`).

export const OUTPUTS_PAGE_SIZE = 4;

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
