import { z } from 'zod';
import { defineRoute } from './routes.js';

/**
 * The ports a media node's services listen on. Each node tells the control plane its own at start
 * (several nodes on one machine need distinct ports); URLs of a node that has not told use the defaults.
 * 0 means the node does not offer that service.
 */
export const MEDIA_PORT_DEFAULTS = { rtmp: 1935, srt: 9710, rtsp: 8554, srtPlayback: 9720 } as const;

const mediaPort = (label: string) =>
  z
    .number({ error: `${label} port is required` })
    .int(`${label} port must be a whole number`)
    .min(0, `${label} port must be at least 0`)
    .max(65535, `${label} port must be at most 65535`);

export const MediaPorts = z.strictObject({
  rtmp: mediaPort('RTMP'),
  /** SRT pushes. */
  srt: mediaPort('SRT'),
  rtsp: mediaPort('RTSP'),
  /** SRT viewers (a port of its own: docs/decisions.md, "SRT playback"); absent from nodes older than it. */
  srtPlayback: mediaPort('SRT playback').optional(),
});
export type MediaPorts = z.infer<typeof MediaPorts>;

export const nodeMediaRoutes = {
  ports: defineRoute({
    method: 'PUT',
    path: '/node/media',
    summary:
      "Tell the control plane the ports of the calling node's media services (the push and playback URLs use them)",
    tag: 'node-facing',
    auth: 'node',
    body: z.strictObject({ ports: MediaPorts }),
    response: z.object({ ports: MediaPorts }),
  }),
};
