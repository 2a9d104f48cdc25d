import { z } from 'zod';
import { Id, Timestamp } from './common.js';
import { defineRoute } from './routes.js';

/**
 * The audit log: every write the API accepted (and every sign-in, failed ones too), newest first, read a
 * page at a time with an opaque cursor (keyset paging: as fast on the millionth page as on the first).
 */

/** The kinds of resource the API audits, for the console's filter (the filter takes any such name). */
export const AUDIT_RESOURCE_TYPES = [
  'account',
  'fallback',
  'input',
  'node',
  'node-group',
  'output',
  'recording',
  'relay',
  'storage',
  'webhook-delivery',
] as const;

export const AUDIT_RESULTS = ['success', 'failure'] as const;
export const AuditResult = z.enum(AUDIT_RESULTS);
export type AuditResult = z.infer<typeof AuditResult>;

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;
export const AUDIT_CURSOR_MAX = 40;
/** A cursor: the last entry's time in microseconds since the epoch, a dash, its number. */
export const AUDIT_CURSOR = /^(\d{1,17})-(\d{1,18})$/;

export const AUDIT_MESSAGES = {
  resourceType: 'Resource type must be lowercase letters and dashes (e.g. input, node-group)',
  action: 'Action must be lowercase letters, dots and dashes (e.g. input.create)',
  cursor: 'Cursor must be the nextCursor of a previous page',
  range: 'From must be before To',
} as const;

const AccountRef = z.object({ id: Id, username: z.string().nullable() });

export const AuditEntry = z.object({
  /** The entry's number: entries are numbered in the order they were written. */
  id: z.string(),
  at: Timestamp,
  /** The account the request acted as (signed in to, for sign-ins); null for the system itself. */
  actor: AccountRef.nullable(),
  /** The admin behind an impersonation: who acted as the account (shown to the account too). */
  actingAdmin: AccountRef.nullable(),
  impersonated: z.boolean(),
  action: z.string(),
  resourceType: z.string().nullable(),
  resourceId: z.string().nullable(),
  /**
   * The address the request came from; null for the system's own work, and to a USER on the entries an
   * admin made impersonating it (that is the admin's own network address, not the account's).
   */
  sourceAddress: z.string().nullable(),
  result: AuditResult,
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

const filterShape = {
  /** Entries of this account (acting as it). A USER may only name its own. */
  account: Id.optional(),
  resourceType: z
    .string()
    .max(64, 'Resource type must be at most 64 characters')
    .regex(/^[a-z][a-z-]*$/, AUDIT_MESSAGES.resourceType)
    .optional(),
  action: z
    .string()
    .max(128, 'Action must be at most 128 characters')
    .regex(/^[a-z][a-z.-]*$/, AUDIT_MESSAGES.action)
    .optional(),
  /** From this time (inclusive). */
  from: Timestamp.optional(),
  /** Up to this time (exclusive). */
  to: Timestamp.optional(),
};

const rangeInOrder = (filter: { from?: string | undefined; to?: string | undefined }) =>
  !filter.from || !filter.to || Date.parse(filter.from) < Date.parse(filter.to);

/** The filters, for the list and the CSV export alike. */
export const AuditFilter = z
  .strictObject(filterShape)
  .refine(rangeInOrder, { message: AUDIT_MESSAGES.range, path: ['to'] });
export type AuditFilter = z.infer<typeof AuditFilter>;

export const AuditQuery = z
  .strictObject({
    ...filterShape,
    cursor: z
      .string()
      .max(AUDIT_CURSOR_MAX, AUDIT_MESSAGES.cursor)
      .regex(AUDIT_CURSOR, AUDIT_MESSAGES.cursor)
      .optional(),
    limit: z.coerce
      .number()
      .int('Limit must be a whole number')
      .min(1, 'Limit must be at least 1')
      .max(AUDIT_PAGE_MAX, `Limit must be at most ${AUDIT_PAGE_MAX}`)
      .default(AUDIT_PAGE_DEFAULT),
  })
  .refine(rangeInOrder, { message: AUDIT_MESSAGES.range, path: ['to'] });
export type AuditQueryInput = z.input<typeof AuditQuery>;
export type AuditQuery = z.output<typeof AuditQuery>;

export const AuditPage = z.object({
  items: z.array(AuditEntry),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type AuditPage = z.infer<typeof AuditPage>;

/** The CSV export's columns, in order. */
export const AUDIT_CSV_HEADER = [
  'Time',
  'Actor',
  'Acting admin',
  'Action',
  'Resource type',
  'Resource ID',
  'Source address',
  'Result',
  'Details',
] as const;

export const auditRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/audit',
    summary:
      'Audit log entries, newest first, one page at a time (`nextCursor`). ADMIN: every account, or the one ' +
      'named; USER: its own account only (naming another is 404).',
    tag: 'audit',
    auth: 'user',
    query: AuditQuery,
    response: AuditPage,
    errors: [400, 404],
  }),
  export: defineRoute({
    method: 'GET',
    path: '/audit/export',
    summary: 'The audit log entries the filters select, newest first, as CSV (text/csv, streamed).',
    tag: 'audit',
    auth: 'user',
    query: AuditFilter,
    response: z.custom<string>((value) => typeof value === 'string').meta({ description: 'CSV (text/csv)' }),
    errors: [400, 404],
  }),
};
