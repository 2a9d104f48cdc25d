import { z } from 'zod';
import { CaptureInput, CaptureView, capturePreset } from './capture.js';
import { Id, IdParams, Timestamp } from './common.js';
import { ActiveProfileQuery, CallbackUriField, StreamIdField } from './recordings.js';
import { defineRoute } from './routes.js';
import { StatusMessage } from './stream-fields.js';

/**
 * Relays push a stream to an external destination: an RTMP server (with a stream key, a secret kept
 * encrypted and never answered), a CMAF ingest endpoint, or a UDP MPEG-TS address. A relay is created in
 * state Relaying; nodes report Completed or Error. Stop only in Relaying; delete only in Completed or
 * Error; the format and autostart are fixed at creation.
 */

export const RELAY_FORMATS = ['RTMP', 'CMAF', 'UDPTS'] as const;
export type RelayFormat = (typeof RELAY_FORMATS)[number];
export const RELAY_FORMAT_LABELS: Record<RelayFormat, string> = { RTMP: 'RTMP', CMAF: 'CMAF', UDPTS: 'UDP (MPEG-TS)' };

export const RELAY_STATES = ['Relaying', 'Completed', 'Error'] as const;
export type RelayState = (typeof RELAY_STATES)[number];
export const ACTIVE_RELAY_STATES: readonly RelayState[] = ['Relaying'];

export const TIMESCALE_MAX = 96_000;
export const UDP_PORT_MAX = 65_535;
export const UDP_DEFAULT_PORT = 8888;
export const RELAY_TEXT_MAX = 255;

export const RELAY_MESSAGES = {
  format: 'Format must be RTMP, CMAF or UDPTS',
  serverRequired: 'Server is required',
  serverUrl: 'Server must be an rtmp:// or rtmps:// URL',
  serverMax: `Server must be at most ${RELAY_TEXT_MAX} characters`,
  keyMax: `Stream key must be at most ${RELAY_TEXT_MAX} characters`,
  endpointRequired: 'Endpoint is required',
  endpointUrl: 'Endpoint must be an http(s) URL',
  endpointMax: `Endpoint must be at most ${RELAY_TEXT_MAX} characters`,
  eventIdMax: `Event ID must be at most ${RELAY_TEXT_MAX} characters`,
  timescale: (label: string) => `${label} must be a whole number from 0 to ${TIMESCALE_MAX}`,
  ipAddressRequired: 'IP address is required',
  ipAddress: 'IP address must be a dotted IPv4 address (for example 192.0.2.10)',
  port: `Port must be a whole number from 0 to ${UDP_PORT_MAX}`,
  creationOnly: (field: string) => `${field} can be set only when the relay is created`,
} as const;

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const DOTTED_IPV4 = new RegExp(`^${OCTET}(\\.${OCTET}){3}$`);
export const isDottedIpv4 = (value: string): boolean => DOTTED_IPV4.test(value);

const RTMP_URL = /^rtmps?:\/\/[^\s/?#]+(\/\S*)?$/i;
const HTTP_URL = /^https?:\/\/[^\s/?#]+(\/\S*)?$/i;

/** A format rule that stays quiet while the field is blank (the required message says it all). */
const unlessBlank = (pattern: RegExp) => (value: string) => value === '' || pattern.test(value);

const requiredText = (required: string, max: string) =>
  z.string({ error: required }).trim().min(1, required).max(RELAY_TEXT_MAX, max);

const timescale = (label: string) =>
  z
    .number({ error: RELAY_MESSAGES.timescale(label) })
    .int(RELAY_MESSAGES.timescale(label))
    .min(0, RELAY_MESSAGES.timescale(label))
    .max(TIMESCALE_MAX, RELAY_MESSAGES.timescale(label))
    .nullable()
    .default(null);

export const RtmpOutputInput = z.strictObject({
  server: requiredText(RELAY_MESSAGES.serverRequired, RELAY_MESSAGES.serverMax).refine(
    unlessBlank(RTMP_URL),
    RELAY_MESSAGES.serverUrl,
  ),
  /**
   * The stream key, a secret. On create, blank or absent means none. On update, blank or absent keeps
   * the stored key and null removes it.
   */
  key: z.string({ error: 'Stream key must be text' }).max(RELAY_TEXT_MAX, RELAY_MESSAGES.keyMax).nullable().optional(),
});

export const CmafOutputInput = z.strictObject({
  endpoint: requiredText(RELAY_MESSAGES.endpointRequired, RELAY_MESSAGES.endpointMax).refine(
    unlessBlank(HTTP_URL),
    RELAY_MESSAGES.endpointUrl,
  ),
  unifiedStreamingPlatform: z.boolean({ error: 'Unified Streaming Platform must be true or false' }).default(false),
  eventID: z
    .string({ error: 'Event ID must be text' })
    .trim()
    .max(RELAY_TEXT_MAX, RELAY_MESSAGES.eventIdMax)
    .nullish()
    .transform((value) => (value ? value : null)),
  videoTimescale: timescale('Video timescale'),
  audioTimescale: timescale('Audio timescale'),
  metaTimescale: timescale('Meta timescale'),
});

export const UdptsOutputInput = z.strictObject({
  ipAddress: z
    .string({ error: RELAY_MESSAGES.ipAddressRequired })
    .trim()
    .min(1, RELAY_MESSAGES.ipAddressRequired)
    .refine(unlessBlank(DOTTED_IPV4), RELAY_MESSAGES.ipAddress),
  port: z
    .number({ error: RELAY_MESSAGES.port })
    .int(RELAY_MESSAGES.port)
    .min(0, RELAY_MESSAGES.port)
    .max(UDP_PORT_MAX, RELAY_MESSAGES.port)
    .default(UDP_DEFAULT_PORT),
});

export const RELAY_OUTPUT_INPUTS = { RTMP: RtmpOutputInput, CMAF: CmafOutputInput, UDPTS: UdptsOutputInput } as const;

/** A relay takes the incoming stream, all tracks, unless told otherwise. */
export const DEFAULT_RELAY_CAPTURE = { source: 'Incoming' as const, tracks: capturePreset('All') };

const formatError = { error: RELAY_MESSAGES.format };

const createCommon = {
  streamId: StreamIdField,
  autostart: z.boolean({ error: 'Autostart must be true or false' }).default(false),
  /** Absent means none. */
  callbackUri: CallbackUriField.optional(),
  /** All tracks of the incoming stream by default. */
  capture: CaptureInput.default(DEFAULT_RELAY_CAPTURE),
};

const updateCommon = {
  streamId: StreamIdField.optional(),
  autostart: z.boolean({ error: 'Autostart must be true or false' }).optional(),
  /** Absent removes it. */
  callbackUri: CallbackUriField.optional(),
  /** Absent keeps the stored capture. */
  capture: CaptureInput.optional(),
};

function relayBodies<C extends typeof createCommon | typeof updateCommon>(common: C) {
  return z.discriminatedUnion(
    'format',
    [
      z.strictObject({ format: z.literal('RTMP', formatError), output: RtmpOutputInput, ...common }),
      z.strictObject({ format: z.literal('CMAF', formatError), output: CmafOutputInput, ...common }),
      z.strictObject({ format: z.literal('UDPTS', formatError), output: UdptsOutputInput, ...common }),
    ],
    formatError,
  );
}

export const RelayCreate = relayBodies(createCommon);
export type RelayCreate = z.output<typeof RelayCreate>;
export type RelayCreateInput = z.input<typeof RelayCreate>;

/** Changing a relay: output, callback URI and capture. The format is repeated (and must be the stored one); autostart may be repeated but not changed. */
export const RelayUpdate = relayBodies(updateCommon);
export type RelayUpdate = z.output<typeof RelayUpdate>;
export type RelayUpdateInput = z.input<typeof RelayUpdate>;

export const RtmpOutputView = z.object({
  server: z.string(),
  /** Whether a stream key is stored; the key itself is never answered (the console shows it masked). */
  keySet: z.boolean(),
});
export const CmafOutputView = z.object({
  endpoint: z.string(),
  unifiedStreamingPlatform: z.boolean(),
  eventID: z.string().nullable(),
  videoTimescale: z.number().int().nullable(),
  audioTimescale: z.number().int().nullable(),
  metaTimescale: z.number().int().nullable(),
});
export type CmafOutput = z.infer<typeof CmafOutputView>;
export const UdptsOutputView = z.object({ ipAddress: z.string(), port: z.number().int() });
export type UdptsOutput = z.infer<typeof UdptsOutputView>;

const relayBase = {
  id: Id,
  streamId: Id,
  autostart: z.boolean(),
  state: z.enum(RELAY_STATES),
  callbackUri: z.string().nullable(),
  capture: CaptureView,
  /** Bytes sent to the destination. */
  uploaded: z.number(),
  messages: z.array(StatusMessage),
  /** A stop was asked for; the node ends the relay. */
  stopRequested: z.boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const Relay = z.discriminatedUnion('format', [
  z.object({ ...relayBase, format: z.literal('RTMP'), output: RtmpOutputView }),
  z.object({ ...relayBase, format: z.literal('CMAF'), output: CmafOutputView }),
  z.object({ ...relayBase, format: z.literal('UDPTS'), output: UdptsOutputView }),
]);
export type Relay = z.infer<typeof Relay>;

const streamParams = z.strictObject({ streamId: Id });

export const relayRoutes = {
  create: defineRoute({
    method: 'POST',
    path: '/relays',
    summary: 'Relay a stream to an RTMP server, a CMAF ingest or a UDP address; it starts in state Relaying',
    tag: 'relays',
    auth: 'user',
    body: RelayCreate,
    response: Relay,
    status: 201,
    errors: [404],
  }),
  listByStream: defineRoute({
    method: 'GET',
    path: '/relays/stream/:streamId',
    summary: "A stream's relays, autostarting first; profile=ACTIVE answers those Relaying",
    tag: 'relays',
    auth: 'user',
    params: streamParams,
    query: ActiveProfileQuery,
    response: z.array(Relay),
    errors: [404],
  }),
  get: defineRoute({
    method: 'GET',
    path: '/relays/:id',
    summary: 'One relay (the RTMP stream key is never answered)',
    tag: 'relays',
    auth: 'user',
    params: IdParams,
    response: Relay,
    errors: [404],
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/relays/:id',
    summary:
      'Change the output, callback URI and capture; the format and autostart are fixed. A blank RTMP key keeps the stored one, null removes it.',
    tag: 'relays',
    auth: 'user',
    params: IdParams,
    body: RelayUpdate,
    response: Relay,
    errors: [404],
  }),
  stop: defineRoute({
    method: 'PUT',
    path: '/relays/:id/stop',
    summary: 'Ask the node to stop (only in state Relaying, else 409). Asking again changes nothing.',
    tag: 'relays',
    auth: 'user',
    params: IdParams,
    response: Relay,
    errors: [404, 409],
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/relays/:id',
    summary: 'Delete a relay (only in Completed or Error, else 409)',
    tag: 'relays',
    auth: 'user',
    params: IdParams,
    response: null,
    errors: [404, 409],
  }),
};

/** Node-facing: what a node reports about a relay of a stream it serves. */
export const RelayStateReport = z.strictObject({
  id: z.string().min(1, 'Report id is required').max(128, 'Report id must be at most 128 characters'),
  at: Timestamp.optional(),
  kind: z.literal('relay-state'),
  relayId: Id,
  state: z.enum(RELAY_STATES).optional(),
  uploaded: z.number().min(0, 'uploaded must be at least 0').optional(),
  messages: z
    .array(z.strictObject({ level: StatusMessage.shape.level, text: z.string().min(1).max(1000) }))
    .max(20)
    .optional(),
});
export type RelayStateReport = z.infer<typeof RelayStateReport>;

const nodeRelayBase = {
  id: Id,
  streamId: Id,
  streamName: z.string(),
  autostart: z.boolean(),
  capture: CaptureView,
  state: z.enum(RELAY_STATES),
  stopRequested: z.boolean(),
  callbackUri: z.string().nullable(),
};

/** Node-facing: a relay the node should run, with the RTMP key in clear (only here, over the node token). */
export const NodeRelay = z.discriminatedUnion('format', [
  z.object({
    ...nodeRelayBase,
    format: z.literal('RTMP'),
    /** Null when there is no key, or it cannot be decrypted (`keyUnreadable`). */
    output: z.object({ server: z.string(), key: z.string().nullable(), keyUnreadable: z.boolean() }),
  }),
  z.object({ ...nodeRelayBase, format: z.literal('CMAF'), output: CmafOutputView }),
  z.object({ ...nodeRelayBase, format: z.literal('UDPTS'), output: UdptsOutputView }),
]);
export type NodeRelay = z.infer<typeof NodeRelay>;

export const nodeRelayRoutes = {
  relays: defineRoute({
    method: 'GET',
    path: '/node/relays',
    summary:
      'The relays the calling node should run on the streams it serves: Relaying, and autostarting ones not stopped; RTMP keys in clear',
    tag: 'node-facing',
    auth: 'node',
    response: z.array(NodeRelay),
  }),
};
