import * as exported from './exports.js';
import type { AnyRoute } from './routes.js';

/** The names of the route groups among the contract's exports: the `…Routes` objects. */
type RouteGroupName = Extract<keyof typeof exported, `${string}Routes`>;

/** Every route group of the API, by name (the type of `routeTable`). */
export type RouteTable = { [K in RouteGroupName]: (typeof exported)[K] };

/**
 * Every route group of the API, by name: each `…Routes` object the contract exports (exports.ts), so a group
 * added to the contract is in the table without another list to edit. Tools that must cover the whole API
 * (the fuzzing suite, scope checks, the serializer's test) read this table.
 */
export const routeTable: RouteTable = Object.fromEntries(
  Object.entries(exported).filter(([name]) => name.endsWith('Routes')),
) as RouteTable;

// Each group is a record of routes (a `…Routes` export of another shape is a compile error here).
routeTable satisfies Record<string, Record<string, AnyRoute>>;

export interface RouteEntry {
  /** `group.name`, e.g. `streamRoutes.create`. */
  id: string;
  route: AnyRoute;
}

/** Every route of the table, in a stable order (the groups by name). */
export function allRoutes(): RouteEntry[] {
  return Object.entries(routeTable).flatMap(([group, routes]) =>
    Object.entries(routes as Record<string, AnyRoute>).map(([name, route]) => ({ id: `${group}.${name}`, route })),
  );
}
