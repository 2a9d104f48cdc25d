import type { QueryKey } from '@tanstack/react-query';

/** The keys of a resource read one by one (`detail(id)`) and in lists (`lists()`, every list's prefix). */
interface ResourceKeys {
  lists: () => QueryKey;
  detail: (id: string) => QueryKey;
}

/**
 * What a write that answers the saved resource changes (create, update, stop): the answer is shown at once
 * under its detail key, and every list is read again. Spread into `useRouteMutation`'s options.
 */
export function savesResource(keys: ResourceKeys) {
  return {
    sets: (saved: { id: string }) => keys.detail(saved.id),
    invalidates: () => [keys.lists()],
  };
}

/** What a delete called with the resource's id changes: its detail is dropped, every list read again. */
export function deletesResource(keys: ResourceKeys) {
  return {
    removes: (_nothing: unknown, id: string) => [keys.detail(id)],
    invalidates: () => [keys.lists()],
  };
}
