/**
 * Every path the node's HTTP port serves, in one table: the router (server.ts) dispatches by it, answers CORS
 * and preflights only where it says so, and refuses a control route without the control plane's credential
 * before its handler runs; the security suite (test/security.test.ts) probes every route of it with every kind
 * of caller, so a path added here is covered the day it is added.
 *
 * Who may call:
 * - `control`: the control plane only, with the node control credential (docs/node-control-api.md); no CORS.
 * - `viewer`: a player with the output's viewer token (none for a Public stream's output) or a preview credential
 *   of its stream; CORS `*` (browser players, read-only for HLS).
 * - `publisher`: a publisher with the stream's access token (none for a Public stream); CORS `*` (WHIP pages).
 * - `internal`: nginx-rtmp's callbacks, from loopback with the node's secret path segment; 404 to anyone else.
 */
export type RouteAccess = 'control' | 'viewer' | 'publisher' | 'internal';

export interface NodeRoute {
  /** The first path segment (`/metadata`: `metadata`). */
  readonly segment: string;
  /** The route is that segment only (`/metadata`), or that segment and what follows (`/hls/<output>/<file>`). */
  readonly exact: boolean;
  readonly methods: readonly string[];
  readonly access: RouteAccess;
  /** Answers carry `Access-Control-Allow-Origin: *`, and preflights are answered with `methods`. */
  readonly cors: boolean;
  /** A request of this route, `{output}` / `{stream}` for the name it takes (what the security suite sends). */
  readonly example: string;
}

export const NODE_ROUTES = {
  metadata: {
    segment: 'metadata',
    exact: true,
    methods: ['GET'],
    access: 'control',
    cors: false,
    example: '/metadata',
  },
  refresh: {
    segment: 'refresh',
    exact: true,
    methods: ['POST'],
    access: 'control',
    cors: false,
    example: '/refresh',
  },
  hls: {
    segment: 'hls',
    exact: false,
    methods: ['GET'],
    access: 'viewer',
    cors: true,
    example: '/hls/{output}/index.m3u8',
  },
  whep: {
    segment: 'whep',
    exact: false,
    methods: ['POST', 'DELETE', 'PATCH'],
    access: 'viewer',
    cors: true,
    example: '/whep/{output}',
  },
  whip: {
    segment: 'whip',
    exact: false,
    methods: ['POST', 'DELETE', 'PATCH'],
    access: 'publisher',
    cors: true,
    example: '/whip/{stream}',
  },
  nginx: {
    segment: '_nginx',
    exact: false,
    methods: ['POST'],
    access: 'internal',
    cors: false,
    example: '/_nginx/{secret}/publish',
  },
} as const satisfies Record<string, NodeRoute>;

export type RouteName = keyof typeof NODE_ROUTES;

/** The route a path belongs to (whatever the method), or null: 404. */
export function routeOf(segments: readonly string[]): { name: RouteName; route: NodeRoute } | null {
  const [first] = segments;
  for (const [name, route] of Object.entries(NODE_ROUTES) as [RouteName, NodeRoute][]) {
    if (route.segment !== first) continue;
    if (route.exact && segments.length !== 1) return null;
    return { name, route };
  }
  return null;
}

/** The headers of a CORS route's answers (refusals too: a browser player may read why it was refused). */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'location, retry-after',
} as const;

/** The answer to a CORS route's preflight: its own methods only. */
export function preflightHeaders(route: NodeRoute): Record<string, string> {
  return {
    ...CORS_HEADERS,
    'access-control-allow-methods': [...route.methods, 'OPTIONS'].join(', '),
    'access-control-allow-headers': 'authorization, content-type',
    // A page's repeated offers and DELETEs skip the preflight for that long.
    'access-control-max-age': '600',
  };
}
