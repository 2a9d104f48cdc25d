import { z } from 'zod';
import { Id, IdParams, Timestamp } from './common.js';
import { defineRoute } from './routes.js';

/**
 * VODs of ended streams (issue 35): when a push ends (after its reconnect grace), the node holding the stream's
 * rewind window (a Low latency output with `dvrWindowMinutes`) keeps that session's segments as an HLS VOD
 * playlist (EXT-X-PLAYLIST-TYPE:VOD, EXT-X-ENDLIST) and reports it. Viewers play it through the stream's outputs
 * as they play the live stream (`/hls/<output>/vod/index.m3u8`, the output's token or the console's preview
 * credential), its bytes billed as the stream's outgoing traffic. It stays until the stream's next session replaces
 * it or the node's rewind disk budget (DVR_MAX_BYTES) needs its room: it is then `Evicted`.
 */

export const VOD_STATES = ['Available', 'Evicted'] as const;
export type VodState = (typeof VOD_STATES)[number];
/** A stream's list shows at most this many (newest first). */
export const VODS_LISTED = 20;

export const VOD_MESSAGES = {
  evicted: 'No longer on the node: its segments were removed to make room, or by the next broadcast',
  noDvr: 'Turn on a DVR window on a Low latency viewer to keep past broadcasts',
} as const;

export const Vod = z.object({
  id: Id,
  streamId: Id,
  state: z.enum(VOD_STATES),
  /** The program date-time of its first frame, and of the end of its last segment. */
  startedAt: Timestamp,
  endedAt: Timestamp,
  /** Seconds of media (a gap between pushes of the session is none of it). */
  duration: z.number(),
  /** Bytes of its segments on the node. */
  size: z.number(),
  /** Its HLS VOD playlist through the stream's Low latency output with a DVR window; null once Evicted or without one. */
  playlistUri: z.string().nullable(),
  /** The output `playlistUri` goes through (its viewers' tokens play it; the console's preview credential too). */
  outputId: Id.nullable(),
  /**
   * The stream's Completed recordings of the same time (made before it ended, finished after it started): the
   * session in the account's own bucket, which outlives the node's copy (played and downloaded as recordings are).
   */
  recordings: z.array(z.object({ id: Id, fileName: z.string(), fileFormat: z.enum(['MP4', 'MKV']) })),
  /** When the node reported it. */
  createdAt: Timestamp,
});
export type Vod = z.infer<typeof Vod>;

export const VodListQuery = z.strictObject({ streamId: Id });

export const vodRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/vods',
    summary: `A stream's VODs of its ended sessions, newest first (at most ${VODS_LISTED})`,
    tag: 'vods',
    auth: 'user',
    query: VodListQuery,
    response: z.array(Vod),
    errors: [404],
  }),
  get: defineRoute({
    method: 'GET',
    path: '/vods/:id',
    summary: 'One VOD of an ended session',
    tag: 'vods',
    auth: 'user',
    params: IdParams,
    response: Vod,
    errors: [404],
  }),
};

/**
 * Node-facing: a session the node keeps as a VOD (`Available`, once its segments are on disk), or no longer
 * keeps (`Evicted`: the disk budget needed the room, or the stream's next session replaced it).
 */
export const VodReport = z.strictObject({
  id: z.string().min(1, 'Report id is required').max(128, 'Report id must be at most 128 characters'),
  at: Timestamp.optional(),
  kind: z.literal('vod'),
  vodId: Id,
  streamId: Id,
  state: z.enum(VOD_STATES),
  startedAt: Timestamp,
  endedAt: Timestamp,
  duration: z.number().min(0, 'duration must be at least 0').max(1e6, 'duration must be at most 1000000'),
  size: z.number().int().min(0, 'size must be at least 0').max(1e13, 'size must be at most 10000000000000'),
});
export type VodReport = z.infer<typeof VodReport>;
