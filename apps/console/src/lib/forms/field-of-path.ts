import type { FieldPath, FieldValues } from 'react-hook-form';

/** Where a message about a request body path shows in a form: one of its fields, or nowhere. */
export type FieldOfPath<V extends FieldValues> = (path: readonly PropertyKey[]) => FieldPath<V> | null;

/** A body path as react-hook-form names fields: `['connection', 'port']` → `connection.port`. */
export const dottedPath = (path: readonly PropertyKey[]): string => path.map(String).join('.');

/** The field named as the path, whatever it is: for forms whose inputs are the body itself. */
export function samePath<V extends FieldValues>(path: readonly PropertyKey[]): FieldPath<V> | null {
  return path.length > 0 ? (dottedPath(path) as FieldPath<V>) : null;
}

/** The form's fields are named as the body's paths; a message about any other path shows nowhere. */
export function namedFields<V extends FieldValues>(fields: readonly FieldPath<V>[]): FieldOfPath<V> {
  const known = new Set<string>(fields);
  return (path) => {
    const name = dottedPath(path);
    return known.has(name) ? (name as FieldPath<V>) : null;
  };
}

/** A table from body paths (`settings.bitrate`) to the fields that show their messages. */
export function fieldsByPath<V extends FieldValues>(table: Readonly<Record<string, FieldPath<V>>>): FieldOfPath<V> {
  return (path) => table[dottedPath(path)] ?? null;
}
