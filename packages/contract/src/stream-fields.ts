import { z } from 'zod';
import { Timestamp } from './common.js';
import { GeoPoint } from './nodes.js';

// The fields a stream and its outputs share in their requests and answers (streams.ts, outputs.ts). The index
// re-exports the public ones by name: `callbackUri` stays inside the package.

export const CALLBACK_URI_MAX = 255;

export const callbackUri = z
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
