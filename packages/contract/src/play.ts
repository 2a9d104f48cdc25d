import { z } from 'zod';
import { Id, IdParams } from './common.js';
import { HlsLatency, OutputAccess, OutputFormat } from './outputs.js';
import { defineRoute } from './routes.js';
import { StreamStatus } from './stream-list.js';

/** The path of an output's embeddable player page (served by the API beside the console). */
export const playPagePath = (outputId: string) => `/play/${outputId}`;

/**
 * What the embeddable player page (`/play/{outputId}`) needs to play one output, readable by anyone who has
 * the output's id: no token, no owner, nothing of the node beyond the playback URLs the output's connection
 * gives its viewers anyway. `playback.whep` for a WebRTC output, `playback.hls` for an HLS output; neither
 * while the stream has no node. A WebRTC output also has `playback.hls` when its stream has an HLS output of the
 * same access (Public or Signed): the page plays it where the browser has no WebRTC. `poster` is the public URL
 * of the stream's latest snapshot, only for a Public output (a Private or Signed output's picture is for its
 * token holders). `hlsLatency` is the latency of the HLS output `playback.hls` plays (null without one): a Low
 * output's player follows the playlist's part hold-back.
 */
export const PlayInfo = z.object({
  outputId: Id,
  format: OutputFormat,
  streamStatus: StreamStatus,
  access: OutputAccess,
  hlsLatency: HlsLatency.nullable(),
  playback: z.object({ whep: z.string().optional(), hls: z.string().optional() }),
  poster: z.string().nullable(),
  /**
   * The viewer session credential the player's quality beacons carry (`POST /play/{id}/beacons`): a new one
   * with each answer, signed by the API for this output, valid 12 hours. Not a playback credential.
   */
  viewerSession: z.string(),
});
export type PlayInfo = z.infer<typeof PlayInfo>;

export const playRoutes = {
  info: defineRoute({
    method: 'GET',
    path: '/play/:id',
    summary:
      "What the embeddable player needs to play an output (format, the stream's status, access, playback URLs, " +
      'poster); public: nothing secret',
    tag: 'play',
    auth: 'public',
    params: IdParams,
    response: PlayInfo,
    errors: [404],
  }),
  poster: defineRoute({
    method: 'GET',
    path: '/play/:id/poster',
    summary:
      "The latest snapshot of a Public output's stream (outgoing, else incoming) as the player's poster " +
      '(image bytes, Cache-Control: no-cache); 404 without one. Any `t` query value is ignored (cache busting).',
    tag: 'play',
    auth: 'public',
    params: IdParams,
    query: z.strictObject({ t: z.string().max(64).optional() }),
    response: z
      .custom<Uint8Array>((value) => value instanceof Uint8Array)
      .meta({ description: 'The image bytes (image/jpeg or image/png)' }),
    errors: [404],
  }),
};
