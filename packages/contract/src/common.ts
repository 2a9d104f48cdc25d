import { z } from 'zod';

/** Every error the API answers with has this shape. */
export const ErrorBody = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const Id = z.uuid({ message: 'Must be a UUID' });

export const IdParams = z.strictObject({ id: Id });

export const Role = z.enum(['ADMIN', 'USER']);
export type Role = z.infer<typeof Role>;

/** The range of an `integer` column: a whole number outside it is a 400 naming the field, not a database error. */
export const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 } as const;

/** A whole number that fits an `integer` column. */
export const int32 = (label: string) =>
  z
    .number()
    .int(`${label} must be a whole number`)
    .min(INT32.min, `${label} must be at least ${INT32.min}`)
    .max(INT32.max, `${label} must be at most ${INT32.max}`);

export const Timestamp = z.iso.datetime({ offset: true });

/** Paging query for lists that answer with X-Total-Count. */
export const PageQuery = z.strictObject({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(200).default(200),
});
