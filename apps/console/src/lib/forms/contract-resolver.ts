import { toNestErrors } from '@hookform/resolvers';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { type FieldOfPath, samePath } from './field-of-path';

type MessageOf = (path: readonly PropertyKey[], message: string) => string;

/** How a form whose inputs stand for a request body is checked. */
export interface BodyFormOptions<V extends FieldValues> {
  /** The body the inputs stand for: what the schema checks. */
  toBody: (values: V) => unknown;
  /** Which field shows a message about a body path; by default the field named as the path. */
  fieldOfPath?: FieldOfPath<V>;
  /** The message as the form words it (e.g. 'Track 2: …'); the schema's own by default. */
  messageOf?: MessageOf;
}

/**
 * The one form resolver: the contract's schema (the server's own rules) checks what the form would send,
 * so form and server say the same thing, and each field shows the first message about it.
 *
 * With the schema alone, the inputs are the body itself and submit hands on the schema's parsed output.
 * With `toBody`, the inputs stand for a body (text for numbers, flags for nulls...) and submit hands on the
 * form's values.
 */
export function contractResolver<S extends z.ZodType>(
  schema: S,
): Resolver<z.input<S> & FieldValues, unknown, z.output<S>>;
export function contractResolver<V extends FieldValues>(schema: z.ZodType, options: BodyFormOptions<V>): Resolver<V>;
export function contractResolver<V extends FieldValues>(
  schema: z.ZodType,
  options?: BodyFormOptions<V>,
): Resolver<V, unknown, unknown> {
  const fieldOfPath = options?.fieldOfPath ?? samePath;
  const messageOf: MessageOf = options?.messageOf ?? ((_path, message) => message);
  return async (values, _context, resolverOptions) => {
    const result = schema.safeParse(options ? options.toBody(values) : values);
    if (result.success) return { values: options ? values : result.data, errors: {} };
    const errors: Record<string, FieldError> = {};
    for (const issue of result.error.issues) {
      const field = fieldOfPath(issue.path);
      if (!field || errors[field]) continue;
      errors[field] = { type: issue.code, message: messageOf(issue.path, issue.message) };
    }
    return { values: {}, errors: toNestErrors(errors, resolverOptions) };
  };
}
