import { NODE_DEFAULTS, NodeRefreshMode } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import {
  adminOnly,
  type MatrixRow,
  type Roles,
  roleMatrixTests,
  useNodeStub,
  useTestApp,
} from '../../../test/helpers.js';
import { closedPort, DEFAULT_STUB_METADATA, type NodeStubBehaviour } from '../../../test/node-stub.js';

/**
 * The node control client's timeout in this file: short, so the slow-node test is quick, yet long enough for every
 * other call to the stub to answer within it on a starved machine (at 400 ms, a call in the niced CPU lane beside
 * e2e once took longer and answered 502).
 */
const CONTROL_TIMEOUT_MS = 2000;

const t = useTestApp({ nodeControlTimeoutMs: CONTROL_TIMEOUT_MS }, { roles: true });
const stub = useNodeStub();

const call = (...args: Parameters<Roles['call']>) => t.roles.call(...args);

const validNode = (overrides: Record<string, unknown> = {}) => ({
  name: 'edge-1',
  connection: { protocol: 'HTTP', hostname: stub.hostname, port: stub.port },
  settings: { bandwidthLimitMbps: 1000, publicIPv4: '203.0.113.10', privateIPv4: '10.0.0.10' },
  location: { code: 'EU', description: 'Frankfurt', geo: { latitude: 50.11, longitude: 8.68 } },
  opened: false,
  enabled: false,
  ...overrides,
});

const createNode = async (overrides: Record<string, unknown> = {}) => {
  const response = await call('ADMIN', 'POST', '/api/v1/nodes', validNode(overrides));
  expect(response.statusCode).toBe(201);
  const created = response.json() as { id: string; token: string; name: string } & Record<string, unknown>;
  // The stub stands for this node: it answers only calls signed for its token, as a node does.
  stub.trust(created.token);
  return created;
};

const listNodes = async () => (await call('ADMIN', 'GET', '/api/v1/nodes')).json() as Array<Record<string, unknown>>;

describe('role matrix', () => {
  const matrix: MatrixRow<string>[] = [
    { name: 'GET /nodes', call: () => ['GET', '/api/v1/nodes'], expected: adminOnly(200) },
    {
      name: 'POST /nodes',
      call: () => ['POST', '/api/v1/nodes', validNode({ name: 'other' })],
      expected: adminOnly(201),
    },
    { name: 'GET /nodes/{id}', call: (id) => ['GET', `/api/v1/nodes/${id}`], expected: adminOnly(200) },
    {
      name: 'PUT /nodes/{id}',
      call: (id) => ['PUT', `/api/v1/nodes/${id}`, validNode({ name: 'renamed' })],
      expected: adminOnly(200),
    },
    { name: 'DELETE /nodes/{id}', call: (id) => ['DELETE', `/api/v1/nodes/${id}`], expected: adminOnly(204) },
    {
      name: 'POST /nodes/{id}/refresh',
      call: (id) => ['POST', `/api/v1/nodes/${id}/refresh`, { mode: 'ALL' }],
      expected: adminOnly(200),
    },
    {
      name: 'GET /nodes/{id}/metadata',
      call: (id) => ['GET', `/api/v1/nodes/${id}/metadata`],
      expected: adminOnly(200),
    },
    { name: 'POST /nodes/{id}/token', call: (id) => ['POST', `/api/v1/nodes/${id}/token`], expected: adminOnly(200) },
  ];
  roleMatrixTests(matrix, {
    roles: () => t.roles,
    subject: async () => (await createNode()).id,
    check: async (response, _caller, nodeId) => {
      if (response.statusCode >= 400) expect(response.json().message).toEqual(expect.any(String));
      if (response.statusCode === 403 || response.statusCode === 401) {
        // Nothing changed: the node is still there as created, and the stub was not called.
        expect((await call('ADMIN', 'GET', `/api/v1/nodes/${nodeId}`)).json().name).toBe('edge-1');
        expect(await listNodes()).toHaveLength(1);
        expect(stub.calls).toEqual([]);
      }
    },
  });

  it('a node token is refused on every admin node route (401)', async () => {
    const node = await createNode();
    for (const row of matrix) {
      const [method, url, payload] = row.call(node.id);
      const response = await t.request({ method, url, token: node.token, ...(payload ? { payload } : {}) });
      expect(response.statusCode, row.name).toBe(401);
    }
    const whoami = await t.request({ method: 'GET', url: '/api/v1/accounts/whoami', token: node.token });
    expect(whoami.statusCode).toBe(401);
  });

  it('answers 404 for an unknown node and 400 for a malformed id on every route with an id', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const row of matrix.filter((r) => r.name.includes('{id}'))) {
      const [method, url, payload] = row.call(unknown);
      const response = await call('ADMIN', method, url, payload);
      expect(response.statusCode, row.name).toBe(404);
      expect(response.json()).toEqual({ message: 'Node not found', code: 'NOT_FOUND' });
      const [m2, u2, p2] = row.call('not-a-uuid');
      expect((await call('ADMIN', m2, u2, p2)).statusCode, row.name).toBe(400);
    }
  });
});

describe('POST /nodes', () => {
  it('stores every section 3 field and answers the node with its token', async () => {
    const created = await createNode();
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'edge-1',
      connection: { protocol: 'HTTP', hostname: '127.0.0.1', port: stub.port },
      settings: { bandwidthLimitMbps: 1000, publicIPv4: '203.0.113.10', privateIPv4: '10.0.0.10' },
      location: { code: 'EU', description: 'Frankfurt', geo: { latitude: 50.11, longitude: 8.68 } },
      opened: false,
      enabled: false,
      load: null,
      reporting: 'NeverReported',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      token: expect.stringMatching(/^scn_[A-Za-z0-9_-]{43}$/),
    });
    const { token, ...node } = created;
    expect((await call('ADMIN', 'GET', `/api/v1/nodes/${created.id}`)).json()).toEqual(node);
  });

  it('applies the defaults: HTTP, port 4242, 1000 Mbps, opened and enabled false, no location', async () => {
    const response = await call('ADMIN', 'POST', '/api/v1/nodes', {
      name: 'bare',
      connection: { hostname: 'node.example' },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      connection: { protocol: NODE_DEFAULTS.protocol, hostname: 'node.example', port: 4242 },
      settings: { bandwidthLimitMbps: 1000, publicIPv4: null, privateIPv4: null },
      location: { code: null, description: null, geo: null },
      opened: false,
      enabled: false,
    });
  });

  it('trims text and stores empty optional fields as null', async () => {
    const response = await call(
      'ADMIN',
      'POST',
      '/api/v1/nodes',
      validNode({
        name: '  spaced  ',
        settings: { bandwidthLimitMbps: 0, publicIPv4: '', privateIPv4: '   ' },
        location: { code: '', description: '', geo: null },
      }),
    );
    expect(response.json()).toMatchObject({
      name: 'spaced',
      settings: { bandwidthLimitMbps: 0, publicIPv4: null, privateIPv4: null },
      location: { code: null, description: null, geo: null },
    });
  });

  it('never shows the token again, and stores only its hash', async () => {
    const created = await createNode();
    const got = (await call('ADMIN', 'GET', `/api/v1/nodes/${created.id}`)).body;
    const list = (await call('ADMIN', 'GET', '/api/v1/nodes')).body;
    for (const body of [got, list]) {
      expect(body).not.toContain(created.token);
      expect(body).not.toContain('token');
    }
    const row = await t.database.db.selectFrom('nodes').select('token_hash').executeTakeFirstOrThrow();
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(created.token);
    expect(list).not.toContain(row.token_hash);
  });

  it('gives every node its own token', async () => {
    const a = await createNode({ name: 'a' });
    const b = await createNode({ name: 'b' });
    expect(a.token).not.toBe(b.token);
  });

  it('is audited with the acting admin', async () => {
    const created = await createNode();
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({
      action: 'node.create',
      actor_id: t.roles.admin.id,
      target_type: 'node',
      target_id: created.id,
    });
  });
});

describe('field limits (section 5), on create and on update', () => {
  const at = (path: string, value: unknown) => {
    const body = validNode() as Record<string, unknown>;
    const keys = path.split('.');
    let target = body;
    for (const key of keys.slice(0, -1)) {
      target[key] = { ...(target[key] as object) };
      target = target[key] as Record<string, unknown>;
    }
    const last = keys[keys.length - 1] as string;
    if (value === undefined) delete target[last];
    else target[last] = value;
    return body;
  };
  const long = (n: number) => 'a'.repeat(n);

  const invalid: Array<[string, unknown, string]> = [
    ['name', undefined, 'Name is required'],
    ['name', '', 'Name is required'],
    ['name', '   ', 'Name is required'],
    ['name', long(256), 'Name must be at most 255 characters'],
    ['connection.protocol', '', 'Protocol is required'],
    ['connection.protocol', long(17), 'Protocol must be at most 16 characters'],
    ['connection.hostname', undefined, 'Hostname is required'],
    ['connection.hostname', '', 'Hostname is required'],
    ['connection.hostname', long(256), 'Hostname must be at most 255 characters'],
    ['connection.hostname', 'evil.example/path', 'Hostname must be a host name or an IP address'],
    ['connection.port', -1, 'Port must be at least 0'],
    ['connection.port', 65536, 'Port must be at most 65535'],
    ['connection.port', 80.5, 'Port must be a whole number'],
    ['connection.port', '4242', 'Port is required'],
    ['settings.bandwidthLimitMbps', -1, 'Bandwidth limit must be at least 0'],
    ['settings.bandwidthLimitMbps', null, 'Bandwidth limit is required'],
    ['settings.publicIPv4', long(129), 'Public IPv4 must be at most 128 characters'],
    ['settings.privateIPv4', long(129), 'Private IPv4 must be at most 128 characters'],
    ['location.code', long(33), 'Location code must be at most 32 characters'],
    ['location.description', long(129), 'Location description must be at most 128 characters'],
    ['location.geo.latitude', 90.5, 'Latitude must be at most 90'],
    ['location.geo.latitude', -91, 'Latitude must be at least -90'],
    ['location.geo.longitude', 180.5, 'Longitude must be at most 180'],
    ['location.geo.longitude', undefined, 'Longitude is required'],
  ];

  for (const [path, value, message] of invalid) {
    it(`${path} = ${JSON.stringify(value)?.slice(0, 20)} → 400 '${message}', nothing changed`, async () => {
      const created = await call('ADMIN', 'POST', '/api/v1/nodes', at(path, value));
      expect(created.statusCode).toBe(400);
      expect(created.json().code).toBe('VALIDATION');
      expect(created.json().errors).toContainEqual({ path: `body.${path}`, message });
      expect(await listNodes()).toEqual([]);

      const node = await createNode();
      const before = (await call('ADMIN', 'GET', `/api/v1/nodes/${node.id}`)).json();
      const updated = await call('ADMIN', 'PUT', `/api/v1/nodes/${node.id}`, at(path, value));
      expect(updated.statusCode).toBe(400);
      expect(updated.json().errors).toContainEqual({ path: `body.${path}`, message });
      expect((await call('ADMIN', 'GET', `/api/v1/nodes/${node.id}`)).json()).toEqual(before);
    });
  }

  it('accepts every limit exactly', async () => {
    const response = await call(
      'ADMIN',
      'POST',
      '/api/v1/nodes',
      validNode({
        name: long(255),
        connection: { protocol: long(16), hostname: long(255), port: 0 },
        settings: { bandwidthLimitMbps: 0, publicIPv4: long(128), privateIPv4: long(128) },
        location: { code: long(32), description: long(128), geo: { latitude: -90, longitude: 180 } },
      }),
    );
    expect(response.statusCode).toBe(201);
    expect(response.json().connection).toEqual({ protocol: long(16), hostname: long(255), port: 0 });
  });

  it('accepts IPv4 and IPv6 addresses as hostname', async () => {
    for (const hostname of ['192.0.2.1', '::1', '[2001:db8::1]', 'node-1.eu.example.com']) {
      const response = await call('ADMIN', 'POST', '/api/v1/nodes', validNode({ connection: { hostname } }));
      expect(response.statusCode, hostname).toBe(201);
    }
  });

  it('refuses unknown fields, also nested ones', async () => {
    for (const body of [
      { ...validNode(), token: 'mine' },
      validNode({ connection: { hostname: 'h', extra: 1 } }),
      validNode({ settings: { bandwidthLimitMbps: 1, x: 1 } }),
    ]) {
      expect((await call('ADMIN', 'POST', '/api/v1/nodes', body)).statusCode).toBe(400);
    }
    expect(await listNodes()).toEqual([]);
  });
});

describe('PUT /nodes/{id}', () => {
  it('replaces the node and keeps its id, token and creation time', async () => {
    const created = await createNode();
    const response = await call(
      'ADMIN',
      'PUT',
      `/api/v1/nodes/${created.id}`,
      validNode({
        name: 'edge-2',
        connection: { protocol: 'HTTPS', hostname: 'edge-2.example', port: 8443 },
        settings: { bandwidthLimitMbps: 2500, publicIPv4: null },
        location: { code: 'NA', description: 'Toronto' },
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: created.id,
      name: 'edge-2',
      connection: { protocol: 'HTTPS', hostname: 'edge-2.example', port: 8443 },
      settings: { bandwidthLimitMbps: 2500, publicIPv4: null, privateIPv4: null },
      location: { code: 'NA', description: 'Toronto', geo: null },
      createdAt: created.createdAt,
    });
    expect(response.json().token).toBeUndefined();
    const whoami = await t.request({ method: 'GET', url: '/api/v1/node/whoami', token: created.token });
    expect(whoami.json().name).toBe('edge-2');
  });

  it('sets opened and enabled independently', async () => {
    const created = await createNode();
    for (const [opened, enabled] of [
      [true, false],
      [false, true],
      [true, true],
      [false, false],
    ]) {
      const response = await call('ADMIN', 'PUT', `/api/v1/nodes/${created.id}`, validNode({ opened, enabled }));
      expect(response.json()).toMatchObject({ opened, enabled });
      expect((await call('ADMIN', 'GET', `/api/v1/nodes/${created.id}`)).json()).toMatchObject({ opened, enabled });
    }
    const both = await createNode({ name: 'x', opened: true, enabled: false });
    expect(both).toMatchObject({ opened: true, enabled: false });
  });
});

describe('DELETE /nodes/{id}', () => {
  it('removes the node with its reports and samples; its token stops working', async () => {
    const created = await createNode();
    const report = await t.request({
      method: 'POST',
      url: '/api/v1/node/reports',
      token: created.token,
      payload: { reports: [{ id: 'r1', kind: 'load', cpuPercent: 5, bandwidthMbps: 1, sessions: 0 }] },
    });
    expect(report.statusCode).toBe(200);
    expect((await call('ADMIN', 'DELETE', `/api/v1/nodes/${created.id}`)).statusCode).toBe(204);
    expect((await call('ADMIN', 'GET', `/api/v1/nodes/${created.id}`)).statusCode).toBe(404);
    expect((await call('ADMIN', 'DELETE', `/api/v1/nodes/${created.id}`)).statusCode).toBe(404);
    expect(await t.database.db.selectFrom('node_load_samples').selectAll().execute()).toEqual([]);
    expect(await t.database.db.selectFrom('node_reports').selectAll().execute()).toEqual([]);
    const whoami = await t.request({ method: 'GET', url: '/api/v1/node/whoami', token: created.token });
    expect(whoami.statusCode).toBe(401);
  });
});

describe('POST /nodes/{id}/token', () => {
  it('issues a new token once; the old one stops working at once', async () => {
    const created = await createNode();
    const response = await call('ADMIN', 'POST', `/api/v1/nodes/${created.id}/token`);
    expect(response.statusCode).toBe(200);
    const { token } = response.json();
    expect(token).toMatch(/^scn_/);
    expect(token).not.toBe(created.token);
    const whoami = (tok: string) => t.request({ method: 'GET', url: '/api/v1/node/whoami', token: tok });
    expect((await whoami(created.token)).statusCode).toBe(401);
    expect((await whoami(token)).statusCode).toBe(200);
    expect((await call('ADMIN', 'GET', `/api/v1/nodes/${created.id}`)).body).not.toContain(token);
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({ action: 'node.token.reissue', target_id: created.id });
  });
});

describe('POST /nodes/{id}/refresh (node control API)', () => {
  it('calls POST /refresh {mode} on the node and answers its result, for every mode', async () => {
    const created = await createNode();
    for (const mode of NodeRefreshMode.options) {
      const response = await call('ADMIN', 'POST', `/api/v1/nodes/${created.id}/refresh`, { mode });
      expect(response.statusCode, mode).toBe(200);
      expect(response.json()).toEqual({ mode, result: { refreshed: mode } });
    }
    expect(stub.calls).toEqual(
      NodeRefreshMode.options.map((mode) => ({ method: 'POST', path: '/refresh', body: { mode } })),
    );
    const [entry] = await t.auditLog(1);
    expect(entry).toMatchObject({ action: 'node.refresh', target_id: created.id });
  });

  it('refuses an unknown or missing mode (400) without calling the node', async () => {
    const created = await createNode();
    for (const payload of [{ mode: 'Everything' }, {}, { mode: 'ALL', extra: true }]) {
      const response = await call('ADMIN', 'POST', `/api/v1/nodes/${created.id}/refresh`, payload);
      expect(response.statusCode).toBe(400);
    }
    expect(stub.calls).toEqual([]);
  });

  it('answers 502 NODE_UNREACHABLE naming the node when the node answers 500', async () => {
    const created = await createNode();
    stub.set({ status: 500 });
    const response = await call('ADMIN', 'POST', `/api/v1/nodes/${created.id}/refresh`, { mode: 'Streams' });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      message: `Node edge-1 (127.0.0.1:${stub.port}) is unreachable: it answered HTTP 500`,
      code: 'NODE_UNREACHABLE',
    });
  });
});

describe('GET /nodes/{id}/metadata (node control API)', () => {
  it("answers the node's metadata", async () => {
    const created = await createNode();
    const response = await call('ADMIN', 'GET', `/api/v1/nodes/${created.id}/metadata`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(DEFAULT_STUB_METADATA);
    expect(stub.calls).toEqual([{ method: 'GET', path: '/metadata', body: null }]);
  });

  it("signs every call for the node's own token: a node that has another token refuses it (401)", async () => {
    const created = await createNode();
    stub.forget();
    stub.trust('scn_another-node-token');
    const response = await call('ADMIN', 'GET', `/api/v1/nodes/${created.id}/metadata`);
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe(`Node edge-1 (127.0.0.1:${stub.port}) is unreachable: it answered HTTP 401`);
    // A reissued token: calls are signed with the new one at once.
    stub.forget();
    const { token } = (await call('ADMIN', 'POST', `/api/v1/nodes/${created.id}/token`)).json() as { token: string };
    stub.trust(token);
    expect((await call('ADMIN', 'GET', `/api/v1/nodes/${created.id}/metadata`)).statusCode).toBe(200);
    stub.forget();
    stub.trust(created.token);
    expect((await call('ADMIN', 'POST', `/api/v1/nodes/${created.id}/refresh`, { mode: 'ALL' })).statusCode).toBe(502);
  });

  it('answers 502 when nothing listens on the port', async () => {
    const port = await closedPort();
    const created = await createNode({ name: 'gone', connection: { hostname: '127.0.0.1', port } });
    const response = await call('ADMIN', 'GET', `/api/v1/nodes/${created.id}/metadata`);
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      message: `Node gone (127.0.0.1:${port}) is unreachable: host unreachable`,
      code: 'NODE_UNREACHABLE',
    });
    const refresh = await call('ADMIN', 'POST', `/api/v1/nodes/${created.id}/refresh`, { mode: 'ALL' });
    expect(refresh.statusCode).toBe(502);
  });

  it('answers 502 within the timeout when the node is slow, never hangs', async () => {
    const created = await createNode();
    stub.set({ delayMs: CONTROL_TIMEOUT_MS * 5 });
    const started = Date.now();
    const response = await call('ADMIN', 'GET', `/api/v1/nodes/${created.id}/metadata`);
    expect(Date.now() - started).toBeLessThan(CONTROL_TIMEOUT_MS * 4);
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe(
      `Node edge-1 (127.0.0.1:${stub.port}) is unreachable: no answer within ${CONTROL_TIMEOUT_MS / 1000} s`,
    );
  });

  it('answers 502 when the metadata is not a JSON object', async () => {
    const created = await createNode();
    const cases: Array<[Partial<NodeStubBehaviour>, string]> = [
      [{ metadata: [1, 2] }, 'its metadata is not a JSON object'],
      [{ rawBody: '<html>' }, 'its answer is not JSON'],
      [{ status: 404 }, 'it answered HTTP 404'],
    ];
    for (const [change, reason] of cases) {
      stub.set({ metadata: DEFAULT_STUB_METADATA, rawBody: undefined, status: 200 });
      stub.set(change);
      const response = await call('ADMIN', 'GET', `/api/v1/nodes/${created.id}/metadata`);
      expect(response.statusCode).toBe(502);
      expect(response.json().message).toBe(`Node edge-1 (127.0.0.1:${stub.port}) is unreachable: ${reason}`);
    }
  });

  it('answers 502 for a protocol the control plane cannot speak', async () => {
    const created = await createNode({ connection: { protocol: 'RTMP', hostname: '127.0.0.1', port: stub.port } });
    const response = await call('ADMIN', 'GET', `/api/v1/nodes/${created.id}/metadata`);
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toContain('its protocol RTMP is not HTTP or HTTPS');
    expect(stub.calls).toEqual([]);
  });
});

describe('GET /nodes', () => {
  it('lists every node by name, with its latest load', async () => {
    const b = await createNode({ name: 'b-node' });
    await createNode({ name: 'A-node' });
    await t.request({
      method: 'POST',
      url: '/api/v1/node/reports',
      token: b.token,
      payload: { reports: [{ id: '1', kind: 'load', cpuPercent: 42, bandwidthMbps: 300, sessions: 7 }] },
    });
    const list = await listNodes();
    expect(list.map((node) => node.name)).toEqual(['A-node', 'b-node']);
    expect(list[0]?.load).toBeNull();
    expect(list[1]?.load).toMatchObject({ cpuPercent: 42, bandwidthMbps: 300, sessions: 7 });
  });
});

describe('node health', () => {
  const health = {
    disks: [{ path: '/srv/media', freeBytes: 5e8, totalBytes: 1e11 }],
    encoderCpuPercent: 97.5,
    uploadBacklog: { files: 4, bytes: 3e9 },
    problems: ['Disk nearly full: 0.5 GB free of 93.1 GB at /srv/media (data, recordings)'],
  };
  const report = (token: string, id: string, extra: Record<string, unknown>) =>
    t.request({
      method: 'POST',
      url: '/api/v1/node/reports',
      token,
      payload: { reports: [{ id, kind: 'load', cpuPercent: 99, bandwidthMbps: 1, sessions: 0, ...extra }] },
    });

  it('shows the health the node reported with its latest load, and null from a node that does not report it', async () => {
    const node = await createNode({ name: 'healthy' });
    expect((await report(node.token, '1', {})).statusCode).toBe(200);
    expect((await call('ADMIN', 'GET', `/api/v1/nodes/${node.id}`)).json().load.health).toBeNull();
    expect((await report(node.token, '2', { health, at: new Date(Date.now() + 1).toISOString() })).statusCode).toBe(
      200,
    );
    const shown = (await call('ADMIN', 'GET', `/api/v1/nodes/${node.id}`)).json();
    expect(shown.load.health).toEqual(health);
    expect((await listNodes()).find((listed) => listed.id === node.id)?.load).toMatchObject({ health });
  });

  it.each([
    ['health.encoderCpuPercent', { ...health, encoderCpuPercent: 101 }, 'encoderCpuPercent must be at most 100'],
    [
      'health.uploadBacklog.files',
      { ...health, uploadBacklog: { files: -1, bytes: 0 } },
      'Upload backlog files must be at least 0',
    ],
    ['health.problems', { ...health, problems: Array(11).fill('x') }, 'At most 10 problems'],
    [
      'health.disks.0.path',
      { ...health, disks: [{ path: 'x'.repeat(513), freeBytes: 0, totalBytes: 0 }] },
      'Disk path must be at most 512 characters',
    ],
  ])('%s out of bounds → 400 naming it, nothing stored', async (field, bad, message) => {
    const node = await createNode({ name: 'unhealthy' });
    const response = await report(node.token, '1', { health: bad });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ path: `body.reports.0.${field}`, message });
    expect((await call('ADMIN', 'GET', `/api/v1/nodes/${node.id}`)).json().load).toBeNull();
  });
});

describe('OpenAPI', () => {
  it('documents the node routes and the node control API, and the node-facing routes under their own tag', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(doc.paths['/api/v1/nodes/{id}/metadata'].get.summary).toContain(
      'GET {protocol}://{hostname}:{port}/metadata',
    );
    expect(doc.paths['/api/v1/nodes/{id}/refresh'].post.responses['502']).toBeDefined();
    expect(doc.paths['/api/v1/node/reports'].post.tags).toEqual(['node-facing']);
    expect(doc.paths['/api/v1/node/reports'].post.security).toEqual([{ nodeToken: [] }]);
    expect(doc.paths['/api/v1/node/whoami'].get.tags).toEqual(['node-facing']);
  });
});
