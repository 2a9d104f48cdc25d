import { isApiError } from '@streamcloud/api-client';
import type { FieldValues, UseFormSetError } from 'react-hook-form';
import { type FieldOfPath, samePath } from './field-of-path';

/** A server field error's path as a body path: `body.capture.tracks.0` → `['capture', 'tracks', 0]`. */
export function bodyPath(serverPath: string): (string | number)[] {
  return serverPath
    .replace(/^body\.?/, '')
    .split('.')
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/**
 * The one server-errors-to-fields mapper: puts the server's per-field messages (`body.connection.port`)
 * under the matching inputs; by default the field named as the path.
 */
export function showServerFieldErrors<V extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<V>,
  fieldOfPath: FieldOfPath<V> = samePath,
): void {
  if (!isApiError(error)) return;
  for (const item of error.errors ?? []) {
    const field = fieldOfPath(bodyPath(item.path));
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
  fieldOfPath?: FieldOfPath<V>,
): (values: V) => Promise<void> {
  return async (values) => {
    try {
      await onSave(values);
    } catch (error) {
      showServerFieldErrors(error, setError, fieldOfPath);
    }
  };
}
