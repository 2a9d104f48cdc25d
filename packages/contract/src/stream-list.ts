// The stream list's read on its own: its row, the values its filters offer, its query and its route. Kept
// apart from streams.ts so a reader of the list alone (the console's first screen, on a slow phone) builds
// these few schemas and not every stream schema (bodies, the dashboard's detail, transcoding): a zod schema
// costs its construction when its module is evaluated (docs/decisions.md, issue 21). streams.ts builds
// the full stream from the row's fields and lists this route as `streamRoutes.list`.
import { z } from 'zod';
import { Id, PageQuery, Timestamp } from './common.js';
import { defineRoute } from './routes.js';

/** The spec's input formats: what a stream may read as. The wider list is not offered (see docs/decisions.md). */
export const InputFormat = z.enum(['WebRTC', 'RTMP', 'RTSP', 'SRT', 'Internode']);
export type InputFormat = z.infer<typeof InputFormat>;

export const StreamStatus = z.enum(['Pending', 'Idle', 'Ingestion', 'Error', 'Fallback']);
export type StreamStatus = z.infer<typeof StreamStatus>;

export const AccessMode = z.enum(['Public', 'PrivateIngoing', 'Private']);
export type AccessMode = z.infer<typeof AccessMode>;
export const PRIVATE_ACCESS_MODES: readonly AccessMode[] = ['PrivateIngoing', 'Private'];

export const OutputModeEnum = z.enum(['AdjustableTranscode', 'Passthrough']);

export const STREAMS_PAGE_SIZE = 200;

/** A row of the stream list: what the list shows and filters on, without the dashboard's detail. */
export const StreamInputSummary = z.object({
  id: Id,
  ownerId: Id,
  caption: z.string().nullable(),
  format: InputFormat,
  status: StreamStatus,
  access: AccessMode,
  outputMode: OutputModeEnum,
  name: z.string(),
  nodeId: Id.nullable(),
  createdAt: Timestamp,
});
export type StreamInputSummary = z.infer<typeof StreamInputSummary>;

const SUMMARY_KEYS = Object.keys(StreamInputSummary.shape) as (keyof StreamInputSummary)[];

/** A stream's row of the list: its members the row has (a full stream, say one just created). */
export function streamSummaryOf(stream: StreamInputSummary): StreamInputSummary {
  return Object.fromEntries(SUMMARY_KEYS.map((key) => [key, stream[key]])) as StreamInputSummary;
}

export const InputListQuery = PageQuery.extend({
  /** ADMIN: the streams of one account; USER always sees only its own. */
  account: Id.optional(),
});

/** `streamRoutes.list`, importable without the rest of the stream routes. */
export const streamListRoute = defineRoute({
  method: 'GET',
  path: '/inputs',
  summary: 'Streams of the caller (ADMIN: all, or one account with ?account=), paged; total in X-Total-Count',
  tag: 'streams',
  auth: 'user',
  query: InputListQuery,
  response: z.array(StreamInputSummary),
  errors: [404],
});
