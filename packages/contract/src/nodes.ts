import { z } from 'zod';
import { Id, IdParams, int32, Timestamp } from './common.js';
import { defineRoute } from './routes.js';

/** World regions, in the order the console lists them and the control plane assigns inputs. */
export const REGION_ORDER = ['EU', 'NA', 'SA', 'AS', 'AF', 'AN', 'OC'] as const;
export const RegionCode = z.enum(['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA']);
export type RegionCode = z.infer<typeof RegionCode>;

export const NODE_DEFAULTS = {
  protocol: 'HTTP',
  port: 4242,
  bandwidthLimitMbps: 1000,
  opened: false,
  enabled: false,
} as const;

export const NodeRefreshMode = z.enum([
  'ServerId',
  'Location',
  'Protocols',
  'Streams',
  'Triggers',
  'Tags',
  'Bandwidth',
  'Sessions',
  'EmergencyCleanup',
  'TURN',
  'EmergencyCleanupDisable',
  'ALL',
  /** Clips wait for the node (issue 35): it reads GET /node/clips now. */
  'Clips',
]);
export type NodeRefreshMode = z.infer<typeof NodeRefreshMode>;

/** Optional text: trimmed, at most `max` characters; an empty field is stored as null. */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional();

export const GeoPoint = z.strictObject({
  latitude: z
    .number({ error: 'Latitude is required' })
    .min(-90, 'Latitude must be at least -90')
    .max(90, 'Latitude must be at most 90'),
  longitude: z
    .number({ error: 'Longitude is required' })
    .min(-180, 'Longitude must be at least -180')
    .max(180, 'Longitude must be at most 180'),
});
export type GeoPoint = z.infer<typeof GeoPoint>;

/** Letters, digits, dots, dashes, underscores; an IPv6 address with or without brackets. */
const HOSTNAME = /^(\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*|[A-Za-z0-9._-]+)$/;

export const NODE_LIMITS = {
  name: 255,
  protocol: 16,
  hostname: 255,
  publicIPv4: 128,
  privateIPv4: 128,
  locationCode: 32,
  locationDescription: 128,
} as const;

/** The node as an admin writes it (create and update); the form validates with the same schema. */
export const NodeInput = z.strictObject({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(NODE_LIMITS.name, `Name must be at most ${NODE_LIMITS.name} characters`),
  connection: z.strictObject({
    protocol: z
      .string({ error: 'Protocol is required' })
      .trim()
      .min(1, 'Protocol is required')
      .max(NODE_LIMITS.protocol, `Protocol must be at most ${NODE_LIMITS.protocol} characters`)
      .default(NODE_DEFAULTS.protocol),
    hostname: z
      .string({ error: 'Hostname is required' })
      .trim()
      .min(1, 'Hostname is required')
      .max(NODE_LIMITS.hostname, `Hostname must be at most ${NODE_LIMITS.hostname} characters`)
      .regex(HOSTNAME, 'Hostname must be a host name or an IP address'),
    port: z
      .number({ error: 'Port is required' })
      .int('Port must be a whole number')
      .min(0, 'Port must be at least 0')
      .max(65535, 'Port must be at most 65535')
      .default(NODE_DEFAULTS.port),
  }),
  settings: z
    .strictObject({
      bandwidthLimitMbps: z
        .number({ error: 'Bandwidth limit is required' })
        .min(0, 'Bandwidth limit must be at least 0')
        .default(NODE_DEFAULTS.bandwidthLimitMbps),
      publicIPv4: optionalText(NODE_LIMITS.publicIPv4, 'Public IPv4'),
      privateIPv4: optionalText(NODE_LIMITS.privateIPv4, 'Private IPv4'),
    })
    .default({ bandwidthLimitMbps: NODE_DEFAULTS.bandwidthLimitMbps }),
  location: z
    .strictObject({
      code: optionalText(NODE_LIMITS.locationCode, 'Location code'),
      description: optionalText(NODE_LIMITS.locationDescription, 'Location description'),
      geo: GeoPoint.nullable().optional(),
    })
    .default({}),
  opened: z.boolean().default(NODE_DEFAULTS.opened),
  enabled: z.boolean().default(NODE_DEFAULTS.enabled),
});
export type NodeInput = z.output<typeof NodeInput>;
export type NodeInputDraft = z.input<typeof NodeInput>;

export const NODE_HEALTH_LIMITS = { disks: 4, diskPath: 512, problems: 10, problem: 300 } as const;

/**
 * A node's own health (issue 38), sent with its load: the free space of the folders it writes (data,
 * recordings), the CPU its encoders (ffmpeg, nginx: every process under it but itself) take, the recordings
 * waiting to upload, and the problems the node sees in them, in words an operator acts on.
 */
export const NodeHealth = z.strictObject({
  disks: z
    .array(
      z.strictObject({
        /** The folder, as the node's configuration names it. */
        path: z
          .string()
          .max(NODE_HEALTH_LIMITS.diskPath, `Disk path must be at most ${NODE_HEALTH_LIMITS.diskPath} characters`),
        freeBytes: z.number().min(0, 'freeBytes must be at least 0'),
        totalBytes: z.number().min(0, 'totalBytes must be at least 0'),
      }),
    )
    .max(NODE_HEALTH_LIMITS.disks, `At most ${NODE_HEALTH_LIMITS.disks} disks`),
  encoderCpuPercent: z
    .number()
    .min(0, 'encoderCpuPercent must be at least 0')
    .max(100, 'encoderCpuPercent must be at most 100'),
  uploadBacklog: z.strictObject({
    files: int32('Upload backlog files').min(0, 'Upload backlog files must be at least 0'),
    bytes: z.number().min(0, 'Upload backlog bytes must be at least 0'),
  }),
  problems: z
    .array(
      z.string().max(NODE_HEALTH_LIMITS.problem, `A problem must be at most ${NODE_HEALTH_LIMITS.problem} characters`),
    )
    .max(NODE_HEALTH_LIMITS.problems, `At most ${NODE_HEALTH_LIMITS.problems} problems`),
});
export type NodeHealth = z.infer<typeof NodeHealth>;

/** What a node last reported about its load (null until it reports). */
export const NodeLoad = z.object({
  cpuPercent: z.number(),
  bandwidthMbps: z.number(),
  sessions: z.number().int(),
  /** Null from a node that does not report its health. */
  health: NodeHealth.nullable(),
  reportedAt: Timestamp,
});
export type NodeLoad = z.infer<typeof NodeLoad>;

export const Node = z.object({
  id: Id,
  name: z.string(),
  connection: z.object({ protocol: z.string(), hostname: z.string(), port: z.number().int() }),
  settings: z.object({
    bandwidthLimitMbps: z.number(),
    publicIPv4: z.string().nullable(),
    privateIPv4: z.string().nullable(),
  }),
  location: z.object({
    code: z.string().nullable(),
    description: z.string().nullable(),
    geo: GeoPoint.nullable(),
  }),
  opened: z.boolean(),
  enabled: z.boolean(),
  load: NodeLoad.nullable(),
  /**
   * Whether the node reports: `NeverReported` (registered, not a report yet: not running, or it cannot reach
   * the control plane), `Silent` (no report for NODE_SILENCE_SECONDS: its live streams went to Error),
   * `Reporting`.
   */
  reporting: z.enum(['Reporting', 'Silent', 'NeverReported']),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Node = z.infer<typeof Node>;

/** Creation answers the node and its secret node token, shown this once. */
export const NodeWithToken = Node.extend({ token: z.string() });
export type NodeWithToken = z.infer<typeof NodeWithToken>;

/**
 * Where a region code sorts in the node list: the REGION_ORDER codes first, in that order, then
 * other codes alphabetically, then nodes without a code.
 */
export function compareRegionCodes(a: string | null, b: string | null): number {
  const rank = (code: string | null) => {
    if (!code) return REGION_ORDER.length + 1;
    const index = (REGION_ORDER as readonly string[]).indexOf(code.toUpperCase());
    return index === -1 ? REGION_ORDER.length : index;
  };
  return rank(a) - rank(b) || (a ?? '').toUpperCase().localeCompare((b ?? '').toUpperCase());
}

/**
 * A node's drain (issue 38): while draining, nothing new is placed there (streams, viewer outputs, GSLB pushes),
 * its streams that are not live and the viewer outputs it serves as an edge move to other nodes at the next
 * assignment pass (within seconds), and each live push moves once it ends. `drained`: draining and nothing
 * left, so the node may be stopped.
 */
export const NodeDrain = z.object({
  draining: z.boolean(),
  since: Timestamp.nullable(),
  /** Pushes live on it (Ingestion or Fallback): they move once they end. */
  liveStreams: z.number().int(),
  /** Its other streams: they move at the next pass, or stay while no other node may take them. */
  otherStreams: z.number().int(),
  /** Viewer outputs it serves as an edge. */
  edgeOutputs: z.number().int(),
  drained: z.boolean(),
});
export type NodeDrain = z.infer<typeof NodeDrain>;

/** The 502 an unreachable node answers with. */
export const NODE_UNREACHABLE = 'NODE_UNREACHABLE';

export const NodeRefreshRequest = z.strictObject({ mode: NodeRefreshMode });
export const NodeRefreshResult = z.object({ mode: NodeRefreshMode, result: z.unknown() });
export const NodeMetadata = z.record(z.string(), z.unknown());

export const nodeRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/nodes',
    summary: 'List nodes (ADMIN)',
    tag: 'nodes',
    auth: 'admin',
    response: z.array(Node),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/nodes',
    summary: 'Register a node (ADMIN); the answer carries its node token, shown only once',
    tag: 'nodes',
    auth: 'admin',
    revealsSecret: true,
    body: NodeInput,
    response: NodeWithToken,
    status: 201,
  }),
  get: defineRoute({
    method: 'GET',
    path: '/nodes/:id',
    summary: 'One node (ADMIN)',
    tag: 'nodes',
    auth: 'admin',
    params: IdParams,
    response: Node,
    errors: [404],
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/nodes/:id',
    summary: 'Change a node (ADMIN)',
    tag: 'nodes',
    auth: 'admin',
    params: IdParams,
    body: NodeInput,
    response: Node,
    errors: [404],
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/nodes/:id',
    summary: 'Remove a node (ADMIN); it leaves every node group it was in',
    tag: 'nodes',
    auth: 'admin',
    params: IdParams,
    response: null,
    errors: [404],
  }),
  refresh: defineRoute({
    method: 'POST',
    path: '/nodes/:id/refresh',
    summary:
      "Ask the node to refresh from one of the twelve modes: the control plane calls the node's control API " +
      '`POST {protocol}://{hostname}:{port}/refresh` with `{mode}` (3 s timeout) and answers `{mode, result}`, ' +
      "result being the node's JSON answer. An unreachable node, a timeout or a non-2xx answer gives 502 " +
      '`NODE_UNREACHABLE` with a message naming the node.',
    tag: 'nodes',
    auth: 'admin',
    params: IdParams,
    body: NodeRefreshRequest,
    response: NodeRefreshResult,
    errors: [404, 502, 429],
  }),
  metadata: defineRoute({
    method: 'GET',
    path: '/nodes/:id/metadata',
    summary:
      "The node's own metadata: the control plane calls the node's control API " +
      '`GET {protocol}://{hostname}:{port}/metadata` (3 s timeout) and answers its JSON object as is. ' +
      'An unreachable node, a timeout, a non-2xx or non-object answer gives 502 `NODE_UNREACHABLE`.',
    tag: 'nodes',
    auth: 'admin',
    params: IdParams,
    response: NodeMetadata,
    errors: [404, 502, 429],
  }),
  drain: defineRoute({
    method: 'GET',
    path: '/nodes/:id/drain',
    summary: "The node's drain: whether it is draining and what is left on it",
    tag: 'nodes',
    auth: 'admin',
    params: IdParams,
    response: NodeDrain,
    errors: [404],
  }),
  startDrain: defineRoute({
    method: 'POST',
    path: '/nodes/:id/drain',
    summary:
      'Drain the node before maintenance: no new stream or viewer goes there, what is not live moves to other ' +
      'nodes, live pushes move once they end; answers what is left. Asking again changes nothing.',
    tag: 'nodes',
    auth: 'admin',
    params: IdParams,
    response: NodeDrain,
    errors: [404],
  }),
  stopDrain: defineRoute({
    method: 'DELETE',
    path: '/nodes/:id/drain',
    summary: 'Stop draining: the node takes new streams and viewers again (what moved away stays where it is)',
    tag: 'nodes',
    auth: 'admin',
    params: IdParams,
    response: NodeDrain,
    errors: [404],
  }),
  reissueToken: defineRoute({
    method: 'POST',
    path: '/nodes/:id/token',
    summary: 'Issue a new node token (ADMIN); the old one stops working at once',
    tag: 'nodes',
    auth: 'admin',
    revealsSecret: true,
    params: IdParams,
    response: z.object({ token: z.string() }),
    errors: [404],
  }),
};
