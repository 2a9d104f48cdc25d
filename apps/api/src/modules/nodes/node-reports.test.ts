import { beforeEach, describe, expect, it } from 'vitest';
import { type TestAccount, TestClock, useTestApp } from '../../../test/helpers.js';
import { LOAD_HISTORY_MS } from './node-load.js';
import { NodeReportsService, REPORT_ID_RETENTION_MS } from './node-reports.service.js';

/** A clock the tests move; it starts at the real time so sign-in works. */
const clock = new TestClock();
const t = useTestApp({ clock });

interface World {
  admin: TestAccount;
  user: TestAccount;
  node: { id: string; token: string };
  other: { id: string; token: string };
}
let w: World;

const createNode = async (admin: TestAccount, name: string) => {
  const response = await t.request({
    method: 'POST',
    url: '/api/v1/nodes',
    token: admin.token,
    payload: { name, connection: { hostname: `${name}.example` } },
  });
  return response.json() as { id: string; token: string };
};

beforeEach(async () => {
  const admin = await t.createAccount('ADMIN', 'root');
  const user = await t.createAccount('USER', 'alice');
  w = { admin, user, node: await createNode(admin, 'edge-1'), other: await createNode(admin, 'edge-2') };
});

const load = (
  id: string,
  values: Partial<{ at: string; cpuPercent: number; bandwidthMbps: number; sessions: number }> = {},
) => ({
  id,
  kind: 'load',
  cpuPercent: 10,
  bandwidthMbps: 100,
  sessions: 3,
  ...values,
});

const send = (reports: unknown[], token = w.node.token) =>
  t.request({ method: 'POST', url: '/api/v1/node/reports', token, payload: { reports } });

const nodeLoad = async (id = w.node.id) =>
  (await t.request({ method: 'GET', url: `/api/v1/nodes/${id}`, token: w.admin.token })).json().load;

const storedIds = async () =>
  (await t.database.db.selectFrom('node_reports').select('report_id').orderBy('report_id').execute()).map(
    (row) => row.report_id,
  );

describe('node-facing authentication', () => {
  const routes = [
    { method: 'GET' as const, url: '/api/v1/node/whoami' },
    { method: 'POST' as const, url: '/api/v1/node/reports', payload: { reports: [load('auth-1')] } },
  ];

  it('answers 401 without a token, with a bad token, and with a user or admin JWT', async () => {
    for (const route of routes) {
      for (const token of [undefined, 'scn_not-a-real-token', `scn_${'A'.repeat(43)}`, w.user.token, w.admin.token]) {
        const response = await t.request({ ...route, token });
        expect(response.statusCode, `${route.url} ${token?.slice(0, 8)}`).toBe(401);
        expect(response.json().message).toEqual(expect.any(String));
      }
      const basic = await t.request({ ...route, headers: { authorization: `Basic ${w.node.token}` } });
      expect(basic.statusCode).toBe(401);
    }
    expect(await storedIds()).toEqual([]);
  });

  it("GET /node/whoami answers the calling node's own record", async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/node/whoami', token: w.node.token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: w.node.id,
      name: 'edge-1',
      connection: { hostname: 'edge-1.example' },
    });
    expect(response.body).not.toContain(w.node.token);
    const other = await t.request({ method: 'GET', url: '/api/v1/node/whoami', token: w.other.token });
    expect(other.json().id).toBe(w.other.id);
  });
});

describe("a node's reporting state", () => {
  it('is NeverReported until its first report, Reporting then, Silent after NODE_SILENCE_SECONDS without one', async () => {
    const reporting = async () =>
      (await t.request({ method: 'GET', url: `/api/v1/nodes/${w.node.id}`, token: w.admin.token })).json().reporting;
    const listed = async () =>
      (await t.request({ method: 'GET', url: '/api/v1/nodes', token: w.admin.token }))
        .json()
        .map((node: { name: string; reporting: string }) => [node.name, node.reporting]);
    expect(await reporting()).toBe('NeverReported');
    expect(await send([load('r1', { at: clock.now().toISOString() })])).toMatchObject({ statusCode: 200 });
    expect(await reporting()).toBe('Reporting');
    expect(await listed()).toEqual([
      ['edge-1', 'Reporting'],
      ['edge-2', 'NeverReported'],
    ]);
    // The test app's silence is the default 15 s.
    clock.advance(16_000);
    expect(await reporting()).toBe('Silent');
    expect(await listed()).toEqual([
      ['edge-1', 'Silent'],
      ['edge-2', 'NeverReported'],
    ]);
  });
});

describe('POST /node/reports', () => {
  it('accepts a batch and shows the latest load on the node', async () => {
    const response = await send([
      load('a', { at: '2030-01-01T00:00:00Z', cpuPercent: 50 }),
      load('b', { cpuPercent: 20, bandwidthMbps: 250.5, sessions: 12 }),
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ accepted: 2, duplicates: 0 });
    // The report dated in 2030 is taken at its arrival, like the undated one sent after it: the later wins.
    const shown = await nodeLoad();
    expect(shown).toEqual({
      cpuPercent: 20,
      bandwidthMbps: 250.5,
      sessions: 12,
      health: null,
      reportedAt: expect.any(String),
    });
    expect(new Date(shown.reportedAt).getTime()).toBeLessThanOrEqual(Date.now());
    expect(new Date(shown.reportedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await nodeLoad(w.other.id)).toBeNull();
  });

  it('shows the sample with the latest time, not the last one sent', async () => {
    const now = Date.now();
    await send([
      load('late', { at: new Date(now - 1000).toISOString(), cpuPercent: 70, sessions: 9 }),
      load('early', { at: new Date(now - 60_000).toISOString(), cpuPercent: 5 }),
    ]);
    expect(await nodeLoad()).toEqual({
      cpuPercent: 70,
      bandwidthMbps: 100,
      sessions: 9,
      health: null,
      reportedAt: new Date(now - 1000).toISOString(),
    });
  });

  it('is idempotent by report id: a repeated report changes nothing', async () => {
    const at = new Date(Date.now() - 5000).toISOString();
    expect((await send([load('r1', { at, cpuPercent: 30 }), load('r2', { cpuPercent: 31 })])).json()).toEqual({
      accepted: 2,
      duplicates: 0,
    });
    const before = await nodeLoad();
    const again = await send([load('r1', { at, cpuPercent: 99 }), load('r2', { cpuPercent: 98 })]);
    expect(again.json()).toEqual({ accepted: 0, duplicates: 2 });
    expect(await nodeLoad()).toEqual(before);
    const mixed = await send([load('r2'), load('r3', { cpuPercent: 33 })]);
    expect(mixed.json()).toEqual({ accepted: 1, duplicates: 1 });
    expect((await nodeLoad()).cpuPercent).toBe(33);
    expect(await storedIds()).toEqual(['r1', 'r2', 'r3']);
  });

  it('counts a report id repeated within one batch once; the first wins', async () => {
    const at = new Date(Date.now() - 1000).toISOString();
    const response = await send([load('same', { at, cpuPercent: 1 }), load('same', { at, cpuPercent: 2 })]);
    expect(response.json()).toEqual({ accepted: 1, duplicates: 1 });
    expect((await nodeLoad()).cpuPercent).toBe(1);
  });

  it('keeps report ids per node: two nodes may use the same id', async () => {
    expect((await send([load('x')])).json()).toEqual({ accepted: 1, duplicates: 0 });
    expect((await send([load('x')], w.other.token)).json()).toEqual({ accepted: 1, duplicates: 0 });
  });

  it('forgets report ids after 24 hours', async () => {
    await send([load('old-id')]);
    clock.shift(REPORT_ID_RETENTION_MS + 60_000);
    expect((await send([load('old-id')])).json()).toEqual({ accepted: 1, duplicates: 0 });
  });

  it('keeps one hour of load history', async () => {
    const now = Date.now();
    await send([
      load('h1', { at: new Date(now - LOAD_HISTORY_MS - 60_000).toISOString() }),
      load('h2', { at: new Date(now - LOAD_HISTORY_MS / 2).toISOString() }),
      load('h3', { at: new Date(now - 1000).toISOString() }),
    ]);
    const samples = await t.database.db.selectFrom('node_load_samples').select('at').orderBy('at').execute();
    expect(samples.map((s) => s.at.toISOString())).toEqual([
      new Date(now - LOAD_HISTORY_MS / 2).toISOString(),
      new Date(now - 1000).toISOString(),
    ]);
  });

  it('accepts 500 reports in one batch and refuses 501', async () => {
    const base = Date.now() - 600_000;
    const batch = Array.from({ length: 500 }, (_, i) =>
      load(`bulk-${i}`, { at: new Date(base + i * 1000).toISOString() }),
    );
    expect((await send(batch)).json()).toEqual({ accepted: 500, duplicates: 0 });
    const tooMany = await send([...batch.slice(0, 500).map((r) => ({ ...r, id: `n-${r.id}` })), load('one-more')]);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().errors).toContainEqual({ path: 'body.reports', message: 'At most 500 reports per batch' });
  });

  const invalid: Array<[string, unknown, string]> = [
    ['empty batch', { reports: [] }, 'body.reports'],
    ['no reports field', {}, 'body.reports'],
    ['unknown kind', { reports: [{ ...load('k'), kind: 'weather' }] }, 'body.reports.0.kind'],
    ['missing kind', { reports: [{ id: 'k', cpuPercent: 1, bandwidthMbps: 1, sessions: 1 }] }, 'body.reports.0.kind'],
    ['cpu over 100', { reports: [load('c', { cpuPercent: 100.5 })] }, 'body.reports.0.cpuPercent'],
    ['cpu below 0', { reports: [load('c', { cpuPercent: -1 })] }, 'body.reports.0.cpuPercent'],
    ['negative bandwidth', { reports: [load('b', { bandwidthMbps: -0.1 })] }, 'body.reports.0.bandwidthMbps'],
    ['fractional sessions', { reports: [load('s', { sessions: 1.5 })] }, 'body.reports.0.sessions'],
    ['negative sessions', { reports: [load('s', { sessions: -1 })] }, 'body.reports.0.sessions'],
    ['empty id', { reports: [load('')] }, 'body.reports.0.id'],
    ['id too long', { reports: [load('i'.repeat(129))] }, 'body.reports.0.id'],
    ['bad time', { reports: [load('t', { at: 'yesterday' })] }, 'body.reports.0.at'],
    ['unknown field', { reports: [{ ...load('u'), extra: 1 }] }, 'body.reports.0'],
    ['unknown top-level field', { reports: [load('u')], node: 'x' }, 'body'],
  ];
  for (const [name, payload, path] of invalid) {
    it(`refuses ${name} (400 at ${path}) and stores nothing`, async () => {
      const response = await t.request({
        method: 'POST',
        url: '/api/v1/node/reports',
        token: w.node.token,
        payload: payload as object,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().code).toBe('VALIDATION');
      expect(response.json().errors.map((e: { path: string }) => e.path)).toContain(path);
      expect(await storedIds()).toEqual([]);
      expect(await nodeLoad()).toBeNull();
    });
  }

  it('refuses the whole batch when one report is invalid; the valid ones are accepted when resent', async () => {
    const response = await send([load('good'), load('bad', { cpuPercent: 101 })]);
    expect(response.statusCode).toBe(400);
    expect(await storedIds()).toEqual([]);
    expect((await send([load('good')])).json()).toEqual({ accepted: 1, duplicates: 0 });
  });

  it('accepts an id of exactly 128 characters', async () => {
    expect((await send([load('i'.repeat(128))])).json()).toEqual({ accepted: 1, duplicates: 0 });
  });
});

describe('report handler registry', () => {
  it('refuses a second handler for one kind', () => {
    expect(() => t.app.services.nodeReports.registerReportHandler('load', async () => undefined)).toThrow(
      'A handler for load reports is already registered',
    );
  });

  it('hands each kind its new reports in order, inside the batch transaction; a failure rolls the batch back', async () => {
    const seen: string[][] = [];
    const service = new NodeReportsService({ uow: t.app.moduleContext.uow, clock });
    service.registerReportHandler('load', async ({ uow, node }, reports) => {
      seen.push(reports.map((r) => r.id));
      await uow.health.ping();
      if (reports.some((r) => r.id === 'boom')) throw new Error('handler failed');
      expect(node.id).toBe(w.node.id);
    });
    const node = { id: w.node.id, name: 'edge-1' };
    const batch = (ids: string[]) => ({
      reports: ids.map((id) => ({ id, kind: 'load' as const, cpuPercent: 1, bandwidthMbps: 1, sessions: 1 })),
    });
    expect(await service.receive(node, batch(['a', 'b']))).toEqual({ accepted: 2, duplicates: 0 });
    expect(await service.receive(node, batch(['b', 'c', 'a']))).toEqual({ accepted: 1, duplicates: 2 });
    await expect(service.receive(node, batch(['d', 'boom']))).rejects.toThrow('handler failed');
    expect(seen).toEqual([['a', 'b'], ['c'], ['d', 'boom']]);
    expect(await storedIds()).toEqual(['a', 'b', 'c']);
  });

  it('fails loudly for a kind without a handler', async () => {
    const service = new NodeReportsService({ uow: t.app.moduleContext.uow, clock });
    await expect(
      service.receive(
        { id: w.node.id, name: 'edge-1' },
        { reports: [{ id: 'z', kind: 'load', cpuPercent: 1, bandwidthMbps: 1, sessions: 1 }] },
      ),
    ).rejects.toThrow('No handler is registered for load reports');
    expect(await storedIds()).toEqual([]);
  });
});
