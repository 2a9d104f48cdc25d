import { z } from 'zod';
import { Id, IdParams, Timestamp } from './common.js';
import { maxDataUriLength, SLATE_IMAGE_LIMITS } from './image-probe.js';
import { UploadTarget } from './recordings.js';
import { defineRoute } from './routes.js';

/**
 * Fallbacks: what a stream's viewers get while its input is missing — a still image (Slate), another
 * live input (Input) or a video file (Video). The source is one resource: an image data URI, a URL,
 * or an object in one of the owner's storages. Nodes report each fallback's state.
 */
export const FALLBACK_TYPES = ['Slate', 'Input', 'Video'] as const;
export const FallbackType = z.enum(FALLBACK_TYPES, { error: 'Type is required' });
export type FallbackType = z.infer<typeof FallbackType>;

export const FALLBACK_RESOURCE_TYPES = ['DATA_URI', 'URL', 'STORAGE'] as const;
export const FallbackResourceType = z.enum(FALLBACK_RESOURCE_TYPES, {
  error: 'Source must be DATA_URI, URL or STORAGE',
});
export type FallbackResourceType = z.infer<typeof FallbackResourceType>;

export const FALLBACK_STATES = ['Error', 'Ingestion', 'Pending'] as const;
export const FallbackState = z.enum(FALLBACK_STATES);
export type FallbackState = z.infer<typeof FallbackState>;

/** Badge colours: Error red, Ingestion green, Pending blue. */
export const FALLBACK_STATE_VARIANTS: Record<FallbackState, 'danger' | 'success' | 'primary'> = {
  Error: 'danger',
  Ingestion: 'success',
  Pending: 'primary',
};

export const FALLBACK_LABEL_MAX = 250;
export const FALLBACK_URL_MAX = 2048;
/** `<storage id>/<object key>`. */
export const FALLBACK_STORAGE_REF_MAX = 1024;

/** Which sources each type takes. */
export const FALLBACK_SOURCES: Record<FallbackType, readonly FallbackResourceType[]> = {
  Slate: ['DATA_URI', 'URL', 'STORAGE'],
  Input: ['URL'],
  Video: ['URL', 'STORAGE'],
};

/** URL schemes per type: a slate or a video is fetched over HTTP(S); an input is pulled as a live stream. */
export const FALLBACK_URL_SCHEMES: Record<FallbackType, readonly string[]> = {
  Slate: ['http', 'https'],
  Input: ['rtmp', 'rtmps', 'rtsp', 'srt', 'http', 'https'],
  Video: ['http', 'https'],
};

const STORAGE_REF = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\/\S.*$/;

export const FallbackResource = z.strictObject({
  type: FallbackResourceType,
  data: z
    .string({ error: 'Data is required' })
    .min(1, 'Data is required')
    .max(maxDataUriLength(SLATE_IMAGE_LIMITS.maxBytes), SLATE_IMAGE_LIMITS.messages.size),
});
export type FallbackResource = z.infer<typeof FallbackResource>;

function urlScheme(value: string): string | null {
  try {
    return new URL(value).protocol.replace(/:$/, '').toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The fallback as its owner writes it (create and update; the form validates with it). A slate image
 * given as a data URI is checked by its bytes with `checkImage(bytes, SLATE_IMAGE_LIMITS)`.
 */
export const FallbackInput = z
  .strictObject({
    streamId: z.uuid({ error: (issue) => (issue.input === undefined ? 'Stream is required' : 'Must be a UUID') }),
    type: FallbackType,
    label: z
      .string()
      .trim()
      .max(FALLBACK_LABEL_MAX, `Label must be at most ${FALLBACK_LABEL_MAX} characters`)
      .transform((value) => (value === '' ? null : value))
      .nullable()
      .optional(),
    settings: z.strictObject({
      resources: z.array(FallbackResource).min(1, 'Data is required').max(1, 'A fallback has one source'),
    }),
  })
  .superRefine((fallback, ctx) => {
    const resource = fallback.settings.resources[0];
    if (!resource || resource.data === '') return;
    const path = ['settings', 'resources', 0, 'data'];
    if (!FALLBACK_SOURCES[fallback.type].includes(resource.type)) {
      ctx.addIssue({
        code: 'custom',
        path: ['settings', 'resources', 0, 'type'],
        message: `A ${fallback.type} fallback takes ${FALLBACK_SOURCES[fallback.type].join(' or ')}`,
      });
      return;
    }
    if (resource.type === 'DATA_URI' && !resource.data.startsWith('data:')) {
      ctx.addIssue({ code: 'custom', path, message: 'Data must be a data URI' });
    }
    if (resource.type === 'URL') {
      const schemes = FALLBACK_URL_SCHEMES[fallback.type];
      const scheme = urlScheme(resource.data);
      if (resource.data.length > FALLBACK_URL_MAX) {
        ctx.addIssue({ code: 'custom', path, message: `URL must be at most ${FALLBACK_URL_MAX} characters` });
      } else if (!scheme || !schemes.includes(scheme)) {
        ctx.addIssue({ code: 'custom', path, message: `URL must be a ${schemes.join(', ')} URL` });
      }
    }
    if (resource.type === 'STORAGE') {
      if (resource.data.length > FALLBACK_STORAGE_REF_MAX || !STORAGE_REF.test(resource.data)) {
        ctx.addIssue({ code: 'custom', path, message: 'Storage source must be <storage id>/<object key>' });
      }
    }
  });
export type FallbackInput = z.output<typeof FallbackInput>;
export type FallbackInputDraft = z.input<typeof FallbackInput>;

export const Fallback = z.object({
  id: Id,
  streamId: Id,
  type: FallbackType,
  label: z.string().nullable(),
  state: FallbackState,
  /** The node's last word on it (why it is in Error, for instance). */
  message: z.string().nullable(),
  settings: z.object({ resources: z.array(z.object({ type: FallbackResourceType, data: z.string() })) }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Fallback = z.infer<typeof Fallback>;

/** A slate travels as a data URI of up to 5 MB: its bodies need more than the default 1 MiB. */
export const FALLBACK_BODY_LIMIT = 8 * 1024 * 1024;

export const fallbackRoutes = {
  create: defineRoute({
    method: 'POST',
    path: '/fallbacks',
    summary: 'Add a fallback to a stream (it starts Pending); a slate image is checked by its bytes',
    tag: 'fallbacks',
    auth: 'user',
    body: FallbackInput,
    response: Fallback,
    status: 201,
    errors: [404, 413],
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/fallbacks/:id',
    summary: 'Change a fallback (its stream stays the same); it becomes Pending again',
    tag: 'fallbacks',
    auth: 'user',
    params: IdParams,
    body: FallbackInput,
    response: Fallback,
    errors: [404, 413],
  }),
  list: defineRoute({
    method: 'GET',
    path: '/fallbacks',
    summary: "A stream's fallbacks, oldest first",
    tag: 'fallbacks',
    auth: 'user',
    query: z.strictObject({ streamId: Id }),
    response: z.array(Fallback),
    errors: [404],
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/fallbacks/:id',
    summary: 'Delete a fallback',
    tag: 'fallbacks',
    auth: 'user',
    params: IdParams,
    response: null,
    errors: [404],
  }),
};

/**
 * Node-facing: a fallback with what the node needs to fetch its source: for a storage object, the
 * storage's credentials (null for other sources, and when the storage is gone or its secret cannot be
 * opened: the node reports Error).
 */
export const NodeFallback = Fallback.extend({ storage: UploadTarget.nullable() });
export type NodeFallback = z.infer<typeof NodeFallback>;

export const nodeFallbackRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/node/inputs/:id/fallbacks',
    summary:
      "The fallbacks of an input the calling node serves (404 for any other), with a storage object's credentials",
    tag: 'node-facing',
    auth: 'node',
    params: IdParams,
    response: z.array(NodeFallback),
    errors: [404],
  }),
};

/** Node-facing: a fallback's state as the node that serves its stream sees it. */
export const FallbackStateReport = z.strictObject({
  id: z.string().min(1, 'Report id is required').max(128, 'Report id must be at most 128 characters'),
  at: Timestamp.optional(),
  kind: z.literal('fallback-state'),
  fallbackId: Id,
  state: FallbackState,
  message: z.string().max(1000, 'message must be at most 1000 characters').nullable().optional(),
});
export type FallbackStateReport = z.infer<typeof FallbackStateReport>;
