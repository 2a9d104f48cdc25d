import { isApiError } from '@streamcloud/api-client';
import type { FieldErrors, FieldPath, FieldValues, Resolver, UseFormSetError } from 'react-hook-form';
import type { ZodType } from 'zod';

/** Where a message about a request body path shows in a form: one of its fields, or nowhere. */
export type FieldOfPath<V extends FieldValues> = (path: readonly PropertyKey[]) => FieldPath<V> | null;

const asIs = (_path: readonly PropertyKey[], message: string) => message;

/**
 * A resolver that checks the body the inputs stand for with the contract's schema, so form and server say
 * the same thing; each field shows the first message about it, worded by `messageOf` if given.
 */
export function bodySchemaResolver<V extends FieldValues>(
  schema: ZodType,
  toBody: (values: V) => unknown,
  fieldOfPath: FieldOfPath<V>,
  messageOf: (path: readonly PropertyKey[], message: string) => string = asIs,
): Resolver<V> {
  return async (values) => {
    const result = schema.safeParse(toBody(values));
    if (result.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const field = fieldOfPath(issue.path);
      if (!field || errors[field]) continue;
      errors[field] = { type: issue.code, message: messageOf(issue.path, issue.message) };
    }
    return { values: {}, errors: errors as FieldErrors<V> };
  };
}

/** Puts the server's per-field messages (`body.output.server`, `body.capture.tracks.0`) under the matching inputs. */
function showServerFieldErrors<V extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<V>,
  fieldOfPath: FieldOfPath<V>,
): void {
  if (!isApiError(error)) return;
  for (const item of error.errors ?? []) {
    const path = item.path
      .replace(/^body\.?/, '')
      .split('.')
      .filter(Boolean)
      .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
    const field = fieldOfPath(path);
    if (field) setError(field, { message: item.message });
  }
}

/**
 * A submit handler that saves; when saving is refused the form stays as it is, with the server's
 * per-field messages under their inputs (the caller tells the rest).
 */
export function saveShowingFieldErrors<V extends FieldValues>(
  onSave: (values: V) => Promise<void>,
  setError: UseFormSetError<V>,
  fieldOfPath: FieldOfPath<V>,
): (values: V) => Promise<void> {
  return async (values) => {
    try {
      await onSave(values);
    } catch (error) {
      showServerFieldErrors(error, setError, fieldOfPath);
    }
  };
}
