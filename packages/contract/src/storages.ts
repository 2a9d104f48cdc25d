import { z } from 'zod';
import { Id, IdParams, Timestamp } from './common.js';
import { defineRoute } from './routes.js';

/**
 * Storages: S3 buckets that recordings upload to. A storage belongs to one account (a customer
 * brings its own bucket); USER manages its own, ADMIN sees and manages every account's.
 * The secret access key is write-only: accepted on create and update, answered as `secretAccessKeySet`.
 */

/** Every text field of a storage is at most this long (spec section 5). */
export const STORAGE_TEXT_MAX = 255;

/** The region used for Amazon S3 when none is given, and to sign requests to S3-compatible servers. */
export const DEFAULT_S3_REGION = 'us-east-1';

export const STORAGE_TYPES = ['AmazonS3', 'AmazonS3Compatible'] as const;
export const StorageType = z.enum(STORAGE_TYPES, {
  error: (issue) =>
    issue.input === undefined || issue.input === '' || issue.input === null
      ? 'Type is required'
      : 'Type must be AmazonS3 or AmazonS3Compatible',
});
export type StorageType = z.infer<typeof StorageType>;

/** How the console names the types. */
export const STORAGE_TYPE_LABELS: Record<StorageType, string> = {
  AmazonS3: 'Amazon S3',
  AmazonS3Compatible: 'S3-compatible',
};

const tooLong = (label: string) => `${label} must be at most ${STORAGE_TEXT_MAX} characters`;

const requiredText = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(STORAGE_TEXT_MAX, tooLong(label));

/** Optional text: blank and null mean "not set" and come out as null. */
const optionalText = (label: string) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(STORAGE_TEXT_MAX, tooLong(label))
    .nullish()
    .transform((value) => (value ? value : null));

const REGION_PATTERN = /^[a-z0-9-]+$/;

/** True for an absolute http or https URL with a host (what an S3-compatible endpoint must be). */
export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export const STORAGE_MESSAGES = {
  endpointRequired: 'Endpoint is required for S3-compatible storage',
  endpointUrl: 'Endpoint must be a valid http or https URL',
  endpointOnlyCompatible: 'Endpoint applies only to S3-compatible storage',
  regionFormat: 'Region name may contain only lowercase letters, digits and hyphens (for example eu-west-1)',
} as const;

const fields = {
  name: requiredText('Name'),
  type: StorageType,
  accessKeyId: requiredText('Access key ID'),
  regionName: optionalText('Region name'),
  bucket: requiredText('Bucket'),
  path: optionalText('Path'),
  endpoint: optionalText('Endpoint'),
};

const secretRequired = requiredText('Secret access key');
/** On update a blank or absent secret keeps the stored one. */
const secretKept = z
  .string({ error: 'Secret access key must be text' })
  .trim()
  .max(STORAGE_TEXT_MAX, tooLong('Secret access key'))
  .optional()
  .transform((value) => (value ? value : undefined));

type Shape = {
  type: StorageType | undefined;
  endpoint: string | null | undefined;
  regionName: string | null | undefined;
};

/** The rules between fields; each runs as soon as the fields it reads are valid, so the form shows them early. */
function withTypeRules<T extends z.ZodType<Shape>>(schema: T) {
  // A rule runs only on an object (a null or absent body has no fields to compare) whose fields it reads are valid.
  const validFields =
    (...names: string[]) =>
    (payload: z.core.ParsePayload) =>
      typeof payload.value === 'object' &&
      payload.value !== null &&
      !payload.issues.some((issue) => names.includes(String(issue.path?.[0])));
  const typeAndEndpointValid = validFields('type', 'endpoint');
  const typeAndRegionValid = validFields('type', 'regionName');
  return schema
    .refine((value) => value.type !== 'AmazonS3Compatible' || !!value.endpoint, {
      path: ['endpoint'],
      message: STORAGE_MESSAGES.endpointRequired,
      when: typeAndEndpointValid,
    })
    .refine((value) => value.type !== 'AmazonS3Compatible' || !value.endpoint || isHttpUrl(value.endpoint), {
      path: ['endpoint'],
      message: STORAGE_MESSAGES.endpointUrl,
      when: typeAndEndpointValid,
    })
    .refine((value) => value.type !== 'AmazonS3' || !value.endpoint, {
      path: ['endpoint'],
      message: STORAGE_MESSAGES.endpointOnlyCompatible,
      when: typeAndEndpointValid,
    })
    .refine((value) => value.type !== 'AmazonS3' || !value.regionName || REGION_PATTERN.test(value.regionName), {
      path: ['regionName'],
      message: STORAGE_MESSAGES.regionFormat,
      when: typeAndRegionValid,
    });
}

/** Creating a storage. ADMIN may name the owner account; it defaults to the caller's account. */
export const StorageCreate = withTypeRules(
  z.strictObject({
    ...fields,
    secretAccessKey: secretRequired,
    ownerId: Id.optional(),
  }),
);
export type StorageCreate = z.output<typeof StorageCreate>;
export type StorageCreateInput = z.input<typeof StorageCreate>;

/** Replacing a storage's settings; the secret may be left out (or blank) to keep the stored one. */
export const StorageUpdate = withTypeRules(
  z.strictObject({
    ...fields,
    secretAccessKey: secretKept,
  }),
);
export type StorageUpdate = z.output<typeof StorageUpdate>;
export type StorageUpdateInput = z.input<typeof StorageUpdate>;

export const Storage = z.object({
  id: Id,
  name: z.string(),
  type: StorageType,
  accessKeyId: z.string(),
  /** Whether a secret access key is stored; the secret itself is never answered. */
  secretAccessKeySet: z.boolean(),
  regionName: z.string().nullable(),
  bucket: z.string(),
  path: z.string().nullable(),
  /** S3-compatible only; null for Amazon S3. */
  endpoint: z.string().nullable(),
  ownerId: Id,
  ownerUsername: z.string(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Storage = z.infer<typeof Storage>;

export const STORAGE_CHECK_NAMES = ['bucket', 'write', 'cleanup'] as const;
export const StorageCheckName = z.enum(STORAGE_CHECK_NAMES);
export type StorageCheckName = z.infer<typeof StorageCheckName>;

/** What each check tests, in words for people. */
export const STORAGE_CHECK_LABELS: Record<StorageCheckName, string> = {
  bucket: 'Bucket reachable',
  write: 'Write permitted',
  cleanup: 'Test object removed',
};

export const StorageCheck = z.object({ name: StorageCheckName, ok: z.boolean(), message: z.string() });
export type StorageCheck = z.infer<typeof StorageCheck>;

/**
 * The connection check: `bucket` (HeadBucket), `write` (PutObject of a small marker under the path),
 * `cleanup` (DeleteObject of that marker). `ok` is true when the bucket is reachable and writable;
 * a failed cleanup is reported but does not fail the check (write-only credentials are enough to record).
 */
export const StorageCheckResult = z.object({ ok: z.boolean(), checks: z.array(StorageCheck) });
export type StorageCheckResult = z.infer<typeof StorageCheckResult>;

/** Create and update answer the storage, the connection check run after saving, and a warning when it failed. */
export const StorageSaved = Storage.extend({
  check: StorageCheckResult.nullable(),
  warning: z.string().nullable(),
});
export type StorageSaved = z.infer<typeof StorageSaved>;

export const StorageListQuery = z.strictObject({
  /** Only this account's storages (ADMIN; a USER only ever sees its own). */
  ownerId: Id.optional(),
});

export const StorageSaveQuery = z.strictObject({
  /** Run the connection check after saving (default true); it never fails the save. */
  check: z.stringbool({ error: 'check must be true or false' }).default(true),
});

export const storageRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/storages',
    summary: "List storages: a USER its own, an ADMIN every account's (optionally one owner's), sorted by name",
    tag: 'storages',
    auth: 'user',
    query: StorageListQuery,
    response: z.array(Storage),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/storages',
    summary:
      "Create a storage for the caller's account (ADMIN may set ownerId); the secret is stored encrypted. " +
      'The connection check runs after saving and a failure comes back as `warning`, never as an error.',
    tag: 'storages',
    auth: 'user',
    query: StorageSaveQuery,
    body: StorageCreate,
    response: StorageSaved,
    status: 201,
    errors: [403, 429],
  }),
  get: defineRoute({
    method: 'GET',
    path: '/storages/:id',
    summary: "One storage (another account's answers 404 to a USER)",
    tag: 'storages',
    auth: 'user',
    params: IdParams,
    response: Storage,
    errors: [404],
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/storages/:id',
    summary:
      "Replace a storage's settings; leave secretAccessKey out (or blank) to keep the stored one. The connection check runs after saving, as on create.",
    tag: 'storages',
    auth: 'user',
    params: IdParams,
    query: StorageSaveQuery,
    body: StorageUpdate,
    response: StorageSaved,
    errors: [404, 429],
  }),
  delete: defineRoute({
    method: 'DELETE',
    path: '/storages/:id',
    summary: 'Delete a storage; refused with 409 while a recording uses it',
    tag: 'storages',
    auth: 'user',
    params: IdParams,
    response: null,
    errors: [404, 409],
  }),
  check: defineRoute({
    method: 'POST',
    path: '/storages/:id/check',
    summary:
      'Check the connection with the stored credentials: bucket reachable (HeadBucket), write permitted (PutObject and ' +
      'DeleteObject of a small marker under the path). Each S3 call has 5 s; an unreachable endpoint is a failed check, not an error.',
    tag: 'storages',
    auth: 'user',
    params: IdParams,
    response: StorageCheckResult,
    errors: [404, 429],
  }),
};
