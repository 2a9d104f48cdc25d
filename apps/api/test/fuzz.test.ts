import { type AnyRoute, API_BASE, allRoutes } from '@streamcloud/contract';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { databaseState } from './database-state.js';
import {
  arbitraryOf,
  hostileValue,
  type Mutation,
  mutate,
  mutation,
  type RawBody,
  rawBody,
  requestSchemaOf,
} from './fuzz/arbitraries.js';
import { TEST_SECRET, useTestApp } from './helpers.js';

// Property-based fuzzing of every route of the contract's route table (docs/conventions.md, "Fuzzing"):
// each run sends one generated request — valid per the route's schemas, or mutated, or a raw body that is
// not JSON — as one caller, and checks the invariants every answer keeps. Deterministic: a fixed seed
// (FUZZ_SEED) and a bounded number of runs per route (FUZZ_RUNS); fast-check prints the seed, the path and
// the counterexample on failure.

const RUNS = Number(process.env.FUZZ_RUNS ?? 5);
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);

/** Tables a refused request may write: the login throttle, its trusted addresses and the audit trail. */
const WRITTEN_ON_REFUSAL = ['login_failures', 'login_trusted_addresses', 'audit_log'];

const t = useTestApp({}, { roles: true });

type Caller = 'anonymous' | 'owner' | 'other' | 'admin' | 'node';

/** What the owner has before the runs start; path parameters that name these target the owner's rows. */
interface Fixture {
  ids: Record<string, string>;
  /** Keys of `ids` another USER is refused with 403 rather than 404. */
  forbiddenToOthers: string[];
  nodeToken: string;
}

async function makeFixture(): Promise<Fixture> {
  const input = await t.createInput();
  const output = await t.createOutput({ streamId: input.id, format: 'HLS' });
  const fallback = await t.request({
    method: 'POST',
    url: `${API_BASE}/fallbacks`,
    token: t.roles.owner.token,
    payload: {
      streamId: input.id,
      type: 'Input',
      label: 'backup',
      settings: { resources: [{ type: 'URL', data: 'srt://backup.example.com:9000' }] },
    },
  });
  expect(fallback.statusCode, fallback.body).toBe(201);
  const node = await t.createNode(t.roles.admin);
  const apiKey = await t.request({
    method: 'POST',
    url: `${API_BASE}/api-keys`,
    token: t.roles.owner.token,
    payload: { name: 'fuzz', scope: 'read' },
  });
  expect(apiKey.statusCode, apiKey.body).toBe(201);
  return {
    ids: {
      '/inputs/:id': input.id,
      '/outputs/:id': output.id,
      '/fallbacks/:id': fallback.json().id,
      '/api-keys/:id': apiKey.json().id,
      ':streamId': input.id,
      '/accounts/:id': t.roles.owner.id,
      ':accountId': t.roles.owner.id,
    },
    // Another account is 403, not 404 (docs/decisions.md, "Account fields"): accounts are not hidden.
    forbiddenToOthers: ['/accounts/:id', ':accountId'],
    nodeToken: node.token,
  };
}

/** The key of the owner's row a path parameter of the route stands for, if any. */
function ownedKey(route: AnyRoute, param: string, fixture: Fixture): string | undefined {
  if (param === 'id') return Object.keys(fixture.ids).find((key) => key.startsWith('/') && route.path.startsWith(key));
  return fixture.ids[`:${param}`] ? `:${param}` : undefined;
}

interface GeneratedRequest {
  caller: Caller;
  /** Each path parameter; `owned` says it names the owner's row (its key in the fixture). */
  params: Record<string, { value: string; owned: string | false }>;
  query: unknown;
  body: { kind: 'json'; value: unknown } | { kind: 'raw'; raw: RawBody };
}

const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

function callersOf(route: AnyRoute): Caller[] {
  return route.auth === 'node' ? ['anonymous', 'node', 'owner'] : ['anonymous', 'owner', 'other', 'admin'];
}

/** Valid per the schema (weight 1) or a mutation of a valid value (weight 2). */
function validOrMutated(schema: Parameters<typeof requestSchemaOf>[0]): fc.Arbitrary<unknown> {
  const valid = arbitraryOf(requestSchemaOf(schema));
  return fc.oneof(
    { weight: 1, arbitrary: valid },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.array(mutation, { minLength: 1, maxLength: 2 }))
        .map(([value, changes]) =>
          changes.reduce((current: unknown, change: Mutation) => mutate(current, change), value),
        ),
    },
  );
}

function requestArbitrary(route: AnyRoute, fixture: Fixture): fc.Arbitrary<GeneratedRequest> {
  const paramNames = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] as string);
  const paramSchema = route.params ? requestSchemaOf(route.params) : undefined;
  const params = fc.record(
    Object.fromEntries(
      paramNames.map((name) => {
        const key = ownedKey(route, name, fixture);
        const owned = key ? fixture.ids[key] : undefined;
        const generated = arbitraryOf(paramSchema?.properties?.[name] ?? { type: 'string' }).map((value) => ({
          value: asText(value),
          owned: false as string | false,
        }));
        const hostile = hostileValue.map((value) => ({ value: asText(value), owned: false as string | false }));
        return [
          name,
          owned
            ? fc.oneof(
                { weight: 3, arbitrary: fc.constant({ value: owned, owned: key as string | false }) },
                { weight: 2, arbitrary: generated },
                { weight: 1, arbitrary: hostile },
              )
            : fc.oneof({ weight: 3, arbitrary: generated }, { weight: 1, arbitrary: hostile }),
        ];
      }),
    ),
  );
  const body = route.body
    ? fc.oneof(
        { weight: 4, arbitrary: validOrMutated(route.body).map((value) => ({ kind: 'json' as const, value })) },
        { weight: 1, arbitrary: rawBody.map((raw) => ({ kind: 'raw' as const, raw })) },
      )
    : fc.oneof(
        {
          weight: 4,
          arbitrary: fc.constant({ kind: 'raw' as const, raw: { contentType: undefined, payload: undefined } }),
        },
        { weight: 1, arbitrary: rawBody.map((raw) => ({ kind: 'raw' as const, raw })) },
      );
  return fc.record({
    caller: fc.constantFrom(...callersOf(route)),
    params,
    query: route.query ? validOrMutated(route.query) : fc.constant(undefined),
    body,
  });
}

function queryString(query: unknown): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  if (query !== null && typeof query === 'object' && !Array.isArray(query)) {
    for (const [key, value] of Object.entries(query)) {
      for (const one of Array.isArray(value) ? value : [value]) {
        if (one !== undefined) search.append(key, asText(one));
      }
    }
  } else {
    search.append(asText(query), '');
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** A path segment as a client would send it; a lone surrogate has no UTF-8 form, so it goes as raw bytes. */
function pathSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '')).concat('%ED%A0%80');
  }
}

function tokenOf(request: GeneratedRequest, fixture: Fixture): string | undefined {
  return {
    anonymous: undefined,
    owner: t.roles.tokens['USER owner'],
    other: t.roles.tokens['USER other'],
    admin: t.roles.tokens.ADMIN,
    node: fixture.nodeToken,
  }[request.caller];
}

function send(route: AnyRoute, request: GeneratedRequest, fixture: Fixture): Promise<LightMyRequestResponse> {
  const path = route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => pathSegment(request.params[name]?.value ?? ''));
  const token = tokenOf(request, fixture);
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  let payload: string | undefined;
  if (request.body.kind === 'json') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(request.body.value) ?? 'null';
  } else {
    if (request.body.raw.contentType) headers['content-type'] = request.body.raw.contentType;
    payload = request.body.raw.payload;
  }
  return t.app.inject({
    method: route.method,
    url: `${API_BASE}${path}${queryString(request.query)}`,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
}

const STACK_TRACE = /\n\s+at \S|node_modules|\.[cm]?[jt]s:\d+:\d+/;
const PASSWORD_HASH = /scrypt\$\d+\$/;

/** Refusals of the router, before a route (and so its auth level) is known: a path parameter too long, bad escapes. */
const ROUTER_REFUSALS = ['FST_ERR_MAX_PARAM_LENGTH', 'FST_ERR_BAD_URL'];

const jsonOf = (response: LightMyRequestResponse) => {
  try {
    return response.json();
  } catch {
    return undefined;
  }
};

/** The caller's token still signs in: a run before may have deleted its account or ended its session. */
async function stillSignedIn(request: GeneratedRequest, fixture: Fixture): Promise<boolean> {
  const response = await t.request({
    method: 'GET',
    url: `${API_BASE}/accounts/whoami`,
    token: tokenOf(request, fixture),
  });
  return response.statusCode === 200;
}

/** The invariants of one answer (the database fingerprints are taken around writes only). */
async function checkAnswer(
  name: string,
  route: AnyRoute,
  fixture: Fixture,
  request: GeneratedRequest,
  response: LightMyRequestResponse,
): Promise<void> {
  const status = response.statusCode;
  const context = `${name} as ${request.caller} → ${status} ${response.body.slice(0, 500)}`;
  expect(status, `never a 5xx: ${context}`).toBeLessThan(500);
  expect(response.body, 'never a stack trace').not.toMatch(STACK_TRACE);
  expect(response.body, 'never the server secret').not.toContain(TEST_SECRET);
  expect(response.body, 'never a password hash').not.toMatch(PASSWORD_HASH);
  const body = jsonOf(response);
  if (ROUTER_REFUSALS.includes(body?.code)) return;
  if (route.auth !== 'public' && request.caller === 'anonymous') expect(status, `anonymous: ${context}`).toBe(401);
  if (route.auth === 'node' && request.caller === 'owner') expect(status, `account token: ${context}`).toBe(401);
  if (route.auth === 'admin' && (request.caller === 'owner' || request.caller === 'other')) {
    if (status !== 401 || (await stillSignedIn(request, fixture))) {
      expect(status, `USER on an admin route: ${context}`).toBe(403);
    }
  }
  if (status === 400) {
    expect(typeof body?.message, context).toBe('string');
    if (body.code === 'VALIDATION') {
      expect(body.errors?.length, `a 400 names the field: ${context}`).toBeGreaterThan(0);
      for (const error of body.errors) expect(error.path, context).toMatch(/^(body|querystring|params)(\.|$)/);
    }
  }
  const owned = Object.values(request.params).flatMap((param) => (param.owned ? [param.owned] : []));
  if (route.auth === 'user' && request.caller === 'other' && owned.length > 0 && status !== 400) {
    const refusal = owned.some((key) => fixture.forbiddenToOthers.includes(key)) ? 403 : 404;
    expect([refusal, 404, 413, 415], `another account's row is not found: ${context}`).toContain(status);
  }
}

describe('fuzzing every route of the contract', () => {
  // One test per route group: the database is emptied and the fixture made once per group, the routes of a
  // group then run on what the earlier ones left (as a real server would).
  const groups = new Map<string, { id: string; route: AnyRoute; index: number }[]>();
  allRoutes().forEach(({ id, route }, index) => {
    const group = id.split('.')[0] as string;
    groups.set(group, [...(groups.get(group) ?? []), { id, route, index }]);
  });
  for (const [group, routes] of groups) {
    it(`${group}: ${routes.length} routes`, { timeout: 120_000 }, async () => {
      const fixture = await makeFixture();
      for (const { id, route, index } of routes) {
        await fc.assert(
          fc.asyncProperty(requestArbitrary(route, fixture), async (request) => {
            const write = route.method !== 'GET';
            const before = write ? await databaseState(t.database.db, WRITTEN_ON_REFUSAL) : undefined;
            const response = await send(route, request, fixture);
            await checkAnswer(`${id} (${route.method} ${route.path})`, route, fixture, request, response);
            if (before && response.statusCode >= 400) {
              expect(
                await databaseState(t.database.db, WRITTEN_ON_REFUSAL),
                `${id}: a refused write changes nothing (${response.statusCode} ${response.body})`,
              ).toEqual(before);
            }
          }),
          { numRuns: RUNS, seed: SEED + index, endOnFailure: true },
        );
      }
    });
  }
});
