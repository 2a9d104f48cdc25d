import { z } from 'zod';
import { Id, Timestamp } from './common.js';
import { maxDataUriLength } from './image-probe.js';
import { defineRoute } from './routes.js';

/**
 * Periodic snapshots of a stream, per direction: incoming (what the streamer sends) and outgoing (what
 * viewers get). A direction without settings (null) takes no snapshots. Nodes send the images; the
 * latest one per stream and direction is kept and served to the dashboard's previews.
 */
export const SNAPSHOT_DIRECTIONS = ['incoming', 'outgoing'] as const;
export const SnapshotDirection = z.enum(SNAPSHOT_DIRECTIONS);
export type SnapshotDirection = z.infer<typeof SnapshotDirection>;

export const SNAPSHOT_FORMATS = ['JPEG', 'PNG'] as const;
export const SNAPSHOT_QUALITIES = ['Low', 'Medium', 'High'] as const;

export const SNAPSHOT_INTERVAL = { min: 1, max: 30, default: 5 } as const;
export const SNAPSHOT_DEFAULTS = { format: 'JPEG', quality: 'Medium', interval: SNAPSHOT_INTERVAL.default } as const;

export const SnapshotSettings = z.strictObject({
  format: z.enum(SNAPSHOT_FORMATS, { error: 'Format is required' }),
  quality: z.enum(SNAPSHOT_QUALITIES, { error: 'Quality is required' }),
  interval: z
    .number({
      error: (issue) =>
        issue.input === undefined || issue.input === null ? 'Interval is required' : 'Interval must be a number',
    })
    .int('Interval must be a whole number')
    .min(SNAPSHOT_INTERVAL.min, `Interval must be at least ${SNAPSHOT_INTERVAL.min}`)
    .max(SNAPSHOT_INTERVAL.max, `Interval must be at most ${SNAPSHOT_INTERVAL.max}`),
});
export type SnapshotSettings = z.infer<typeof SnapshotSettings>;

/** Largest snapshot image a node may send. */
export const SNAPSHOT_IMAGE_MAX_BYTES = 5_000_000;

const directionParams = z.strictObject({ streamId: Id, direction: SnapshotDirection });

export const snapshotRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/snapshots/stream/:streamId/:direction',
    summary: 'Snapshot settings of one direction of a stream; null when that direction takes none',
    tag: 'snapshots',
    auth: 'user',
    params: directionParams,
    response: SnapshotSettings.nullable(),
    errors: [404],
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/snapshots/stream/:streamId/:direction',
    summary: 'Set the snapshot settings of one direction; a null body turns that direction off (like DELETE)',
    tag: 'snapshots',
    auth: 'user',
    params: directionParams,
    body: SnapshotSettings.nullable(),
    response: SnapshotSettings.nullable(),
    errors: [404],
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/snapshots/stream/:streamId/:direction',
    summary: 'Turn snapshots of one direction off; its latest image goes too',
    tag: 'snapshots',
    auth: 'user',
    params: directionParams,
    response: null,
    errors: [404],
  }),
  image: defineRoute({
    method: 'GET',
    path: '/snapshots/stream/:streamId/:direction/image',
    summary:
      'The latest snapshot image (image/jpeg or image/png bytes, Cache-Control: no-cache); 404 until a node has ' +
      'sent one. Any `t` query value is ignored (cache busting).',
    tag: 'snapshots',
    auth: 'user',
    params: directionParams,
    query: z.strictObject({ t: z.string().max(64).optional() }),
    response: z
      .custom<Uint8Array>((value) => value instanceof Uint8Array)
      .meta({ description: 'The image bytes (image/jpeg or image/png)' }),
    errors: [404],
  }),
};

export const nodeSnapshotRoutes = {
  settings: defineRoute({
    method: 'GET',
    path: '/node/inputs/:id/snapshots',
    summary: 'The snapshot settings of an input the calling node serves (404 for any other)',
    tag: 'node-facing',
    auth: 'node',
    params: z.strictObject({ id: Id }),
    response: z.object({ incoming: SnapshotSettings.nullable(), outgoing: SnapshotSettings.nullable() }),
    errors: [404],
  }),
};

/**
 * Node-facing: the latest snapshot of a stream in one direction, base64-encoded. The image is judged by
 * its bytes (PNG or JPEG, at most 5 MB); it is kept only while that direction has settings.
 */
export const SnapshotReport = z.strictObject({
  id: z.string().min(1, 'Report id is required').max(128, 'Report id must be at most 128 characters'),
  at: Timestamp.optional(),
  kind: z.literal('snapshot'),
  streamId: Id,
  direction: SnapshotDirection,
  image: z
    .string({ error: 'image is required' })
    .min(1, 'image is required')
    .max(maxDataUriLength(SNAPSHOT_IMAGE_MAX_BYTES), 'image must be at most 5 MB')
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'image must be base64'),
});
export type SnapshotReport = z.infer<typeof SnapshotReport>;
