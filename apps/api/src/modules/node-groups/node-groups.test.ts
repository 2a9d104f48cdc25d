import type { NodeGroup, ScalingEvent } from '@streamcloud/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  adminOnly,
  type MatrixRow,
  type Method,
  ownerOnly,
  type Roles,
  roleMatrixTests,
  signedIn,
  useTestApp,
} from '../../../test/helpers.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';
import { AwsProvider } from './providers/aws.js';
import { unconfiguredScaling } from './providers/config.js';
import { ProviderError, providerRegistry } from './providers/provider.js';
import { RecordingProvider } from './providers/recording.js';

const aws = new RecordingProvider('AWS');
const digitalOcean = new RecordingProvider('DigitalOcean');
/** Oracle is the real provider without credentials: its calls fail with the configuration message. */
const unconfiguredOracle = new AwsProvider(unconfiguredScaling().aws, {
  fetch: () => Promise.reject(new Error('no network in tests')),
  now: () => new Date(),
  controlPlaneUrl: null,
  nodeStartCommand: 'true',
});
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const t = useTestApp(
  {
    scaling: {
      // The "Oracle" name is served by an unconfigured AWS provider, to see the 503 path.
      providers: {
        ...providerRegistry([aws, digitalOcean]),
        forRule: (name) => (name === 'Oracle' ? unconfiguredOracle : name === 'AWS' ? aws : digitalOcean),
      },
    },
  },
  { roles: true },
);

/** The role matrix's accounts: alice is the owner, bob the other account. */
interface World extends Roles {
  /** alice's group, with one rule and one attached node. */
  group: NodeGroup;
  ruleId: string;
  attachedNodeId: string;
  freeNodeId: string;
  /** bob's group and the streaming cloud's own. */
  bobGroup: NodeGroup;
  cloudGroup: NodeGroup;
}

const validRule = (overrides: Record<string, unknown> = {}) => ({
  enabled: true,
  actionTimeout: 0,
  condition: { type: 'CPUGroupAvg', settings: { type: 'Liner', comparison: 'More', value: 80, duration: 60 } },
  action: { type: 'Increase', settings: { provider: 'AWS', bandwidthLimitMbps: 1000, amount: 1 } },
  ...overrides,
});

let w: World;
const call = (...args: Parameters<Roles['call']>) => w.call(...args);
const admin = (method: Method, url: string, payload?: object) => call('ADMIN', method, url, payload);

async function createNode(name: string, bandwidthLimitMbps = 1000): Promise<string> {
  const response = await admin('POST', '/api/v1/nodes', {
    name,
    connection: { protocol: 'HTTP', hostname: `${name}.example.net`, port: 4242 },
    settings: { bandwidthLimitMbps },
    location: { code: 'EU', description: 'Frankfurt' },
    opened: true,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

async function createGroup(payload: object): Promise<NodeGroup> {
  const response = await admin('POST', '/api/v1/node-groups', payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

beforeEach(async () => {
  aws.launches.length = 0;
  aws.terminated.length = 0;
  aws.failWith = null;
  receiver.received.length = 0;
  w = t.roles as World;
  w.group = await createGroup({ name: 'Alice edge', assignment: 'Outgoing', ownerId: w.owner.id });
  w.bobGroup = await createGroup({ name: 'Bob ingest', assignment: 'Ingestion', ownerId: w.other.id });
  w.cloudGroup = await createGroup({ name: 'Cloud', assignment: 'Common', ownerId: 'NONE' });
  const rule = await admin('POST', `/api/v1/node-groups/${w.group.id}/scaling-rule`, validRule());
  expect(rule.statusCode, rule.body).toBe(201);
  w.ruleId = rule.json().id;
  w.attachedNodeId = await createNode('edge-1');
  w.freeNodeId = await createNode('edge-2');
  expect((await admin('PUT', `/api/v1/node-groups/${w.group.id}/node/${w.attachedNodeId}`)).statusCode).toBe(204);
});

describe('role matrix', () => {
  /** An ADMIN changes a group; its owner may only read it (403), another account does not see it (404). */
  const adminChanges = (ok: number) => ({ ...adminOnly(ok), 'USER other': 404 });
  const cases: MatrixRow<undefined>[] = [
    {
      name: 'GET /node-groups',
      call: () => ['GET', '/api/v1/node-groups'],
      expected: signedIn(200),
    },
    {
      name: 'POST /node-groups',
      call: () => ['POST', '/api/v1/node-groups', { name: 'New', assignment: 'Common' }],
      expected: adminOnly(201),
    },
    {
      name: 'GET /node-groups/persistent/node',
      call: () => ['GET', '/api/v1/node-groups/persistent/node'],
      expected: adminOnly(200),
    },
    {
      name: 'GET /node-groups/{id}',
      call: () => ['GET', `/api/v1/node-groups/${w.group.id}`],
      expected: ownerOnly(200),
    },
    {
      name: 'PUT /node-groups/{id}',
      call: () => ['PUT', `/api/v1/node-groups/${w.group.id}`, { scalable: true }],
      expected: adminChanges(200),
    },
    {
      name: 'DELETE /node-groups/{id}',
      call: () => ['DELETE', `/api/v1/node-groups/${w.group.id}`],
      expected: adminChanges(204),
    },
    {
      name: 'POST /node-groups/{id}/scaling-rule',
      call: () => ['POST', `/api/v1/node-groups/${w.group.id}/scaling-rule`, validRule()],
      expected: adminChanges(201),
    },
    {
      name: 'PUT /node-groups/{id}/scaling-rule/{ruleId}',
      call: () => ['PUT', `/api/v1/node-groups/${w.group.id}/scaling-rule/${w.ruleId}`, validRule({ enabled: false })],
      expected: adminChanges(200),
    },
    {
      name: 'DELETE /node-groups/{id}/scaling-rule/{ruleId}',
      call: () => ['DELETE', `/api/v1/node-groups/${w.group.id}/scaling-rule/${w.ruleId}`],
      expected: adminChanges(204),
    },
    {
      name: 'PUT /node-groups/{id}/node/{nodeId}',
      call: () => ['PUT', `/api/v1/node-groups/${w.group.id}/node/${w.freeNodeId}`],
      expected: adminChanges(204),
    },
    {
      name: 'DELETE /node-groups/{id}/node/{nodeId}',
      call: () => ['DELETE', `/api/v1/node-groups/${w.group.id}/node/${w.attachedNodeId}`],
      expected: adminChanges(204),
    },
    {
      name: 'GET /node-groups/{id}/scaling-events',
      call: () => ['GET', `/api/v1/node-groups/${w.group.id}/scaling-events`],
      expected: ownerOnly(200),
    },
    {
      name: 'POST /node-groups/{id}/allocate',
      call: () => ['POST', `/api/v1/node-groups/${w.group.id}/allocate`],
      expected: adminChanges(201),
    },
  ];

  // One test per endpoint, calling as each caller in turn (ADMIN last: its call may delete what the others were refused).
  roleMatrixTests(cases, { roles: () => w, oneTestPerRow: true });

  it('a refused write changes nothing', async () => {
    const before = (await admin('GET', `/api/v1/node-groups/${w.group.id}`)).json();
    await call('USER owner', 'PUT', `/api/v1/node-groups/${w.group.id}`, { name: 'hijacked', scalable: true });
    await call('USER other', 'DELETE', `/api/v1/node-groups/${w.group.id}`);
    await call('ADMIN impersonating owner', 'DELETE', `/api/v1/node-groups/${w.group.id}/scaling-rule/${w.ruleId}`);
    await call('USER owner', 'DELETE', `/api/v1/node-groups/${w.group.id}/node/${w.attachedNodeId}`);
    expect((await admin('GET', `/api/v1/node-groups/${w.group.id}`)).json()).toEqual(before);
  });

  it('a USER lists only the groups it owns; an ADMIN lists all, with owners', async () => {
    const alice = (await call('USER owner', 'GET', '/api/v1/node-groups')).json() as NodeGroup[];
    expect(alice.map((group) => group.name)).toEqual(['Alice edge']);
    const impersonating = (await call('ADMIN impersonating owner', 'GET', '/api/v1/node-groups')).json() as NodeGroup[];
    expect(impersonating.map((group) => group.name)).toEqual(['Alice edge']);
    const all = (await admin('GET', '/api/v1/node-groups')).json() as NodeGroup[];
    expect(all.map((group) => [group.name, group.owner?.username ?? null])).toEqual([
      ['Alice edge', 'alice'],
      ['Bob ingest', 'bob'],
      ['Cloud', null],
    ]);
  });

  it("the streaming cloud's own groups and other owners' groups do not exist for a USER", async () => {
    for (const id of [w.cloudGroup.id, w.bobGroup.id]) {
      expect((await call('USER owner', 'GET', `/api/v1/node-groups/${id}`)).statusCode).toBe(404);
      expect((await call('USER owner', 'PUT', `/api/v1/node-groups/${id}`, { scalable: true })).statusCode).toBe(404);
      expect((await call('USER owner', 'GET', `/api/v1/node-groups/${id}/scaling-events`)).statusCode).toBe(404);
    }
  });

  it('an unknown group, rule or node is 404 for an ADMIN', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await admin('GET', `/api/v1/node-groups/${unknown}`)).statusCode).toBe(404);
    expect((await admin('DELETE', `/api/v1/node-groups/${unknown}`)).statusCode).toBe(404);
    expect(
      (await admin('PUT', `/api/v1/node-groups/${w.group.id}/scaling-rule/${unknown}`, validRule())).statusCode,
    ).toBe(404);
    expect((await admin('DELETE', `/api/v1/node-groups/${w.group.id}/scaling-rule/${unknown}`)).statusCode).toBe(404);
    // a rule of another group is not found through this one
    expect((await admin('DELETE', `/api/v1/node-groups/${w.bobGroup.id}/scaling-rule/${w.ruleId}`)).statusCode).toBe(
      404,
    );
    expect((await admin('PUT', `/api/v1/node-groups/${w.group.id}/node/${unknown}`)).statusCode).toBe(404);
    const detach = await admin('DELETE', `/api/v1/node-groups/${w.group.id}/node/${w.freeNodeId}`);
    expect(detach.statusCode).toBe(404);
    expect(detach.json().message).toBe('The node is not in this node group');
    expect((await admin('GET', '/api/v1/node-groups/not-a-uuid')).statusCode).toBe(400);
  });
});

describe('node group fields and limits', () => {
  it('creates a group that is not scalable, with the fields given', async () => {
    const group = await createGroup({
      name: '  Edge EU  ',
      description: 'Frankfurt edge',
      assignment: 'Outgoing',
      ownerId: w.other.id,
      onResourcesChangeCallbackUri: 'https://hooks.example.com/groups',
    });
    expect(group).toMatchObject({
      name: 'Edge EU',
      description: 'Frankfurt edge',
      assignment: 'Outgoing',
      ownerId: w.other.id,
      owner: { id: w.other.id, username: 'bob' },
      onResourcesChangeCallbackUri: 'https://hooks.example.com/groups',
      scalable: false,
      scalingRules: [],
      resources: [],
    });
  });

  it("ownerId 'NONE', null or absent means the streaming cloud's own group", async () => {
    for (const ownerId of ['NONE', null, undefined]) {
      const group = await createGroup({ name: `g-${ownerId}`, assignment: 'Common', ownerId });
      expect(group.ownerId).toBeNull();
      expect(group.owner).toBeNull();
    }
    const updated = await admin('PUT', `/api/v1/node-groups/${w.group.id}`, { ownerId: 'NONE' });
    expect(updated.json().ownerId).toBeNull();
  });

  it('refuses an owner that does not exist', async () => {
    const response = await admin('POST', '/api/v1/node-groups', {
      name: 'x',
      assignment: 'Common',
      ownerId: '00000000-0000-4000-8000-000000000000',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'OWNER_NOT_FOUND', message: 'The owner account does not exist' });
  });

  const invalidCreates: Array<[string, Record<string, unknown>, string, string]> = [
    ['name missing', { assignment: 'Common' }, 'body.name', 'Name is required'],
    ['name blank', { name: '   ', assignment: 'Common' }, 'body.name', 'Name is required'],
    [
      'name too long',
      { name: 'n'.repeat(256), assignment: 'Common' },
      'body.name',
      'Name must be at most 255 characters',
    ],
    [
      'description too long',
      { name: 'x', assignment: 'Common', description: 'd'.repeat(16385) },
      'body.description',
      'Description must be at most 16384 characters',
    ],
    ['assignment missing', { name: 'x' }, 'body.assignment', 'Assignment is required'],
    [
      'assignment unknown',
      { name: 'x', assignment: 'Everything' },
      'body.assignment',
      'Assignment must be Common, Ingestion or Outgoing',
    ],
    [
      'callback URI too long',
      { name: 'x', assignment: 'Common', onResourcesChangeCallbackUri: `https://h.example/${'p'.repeat(240)}` },
      'body.onResourcesChangeCallbackUri',
      'Callback URI must be at most 255 characters',
    ],
    [
      'callback URI not http',
      { name: 'x', assignment: 'Common', onResourcesChangeCallbackUri: 'ftp://h.example/x' },
      'body.onResourcesChangeCallbackUri',
      'Callback URI must be an http or https URL',
    ],
    [
      'owner not an id',
      { name: 'x', assignment: 'Common', ownerId: 'alice' },
      'body.ownerId',
      "Owner must be an account id or 'NONE'",
    ],
    ['scalable on create', { name: 'x', assignment: 'Common', scalable: true }, 'body', 'Unrecognized key: "scalable"'],
  ];
  for (const [name, payload, path, message] of invalidCreates) {
    it(`create: ${name} is a 400 naming the field and rule, and nothing is created`, async () => {
      const response = await admin('POST', '/api/v1/node-groups', payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toContainEqual({ path, message });
      expect((await admin('GET', '/api/v1/node-groups')).json()).toHaveLength(3);
    });
  }

  it('accepts every limit exactly', async () => {
    const group = await createGroup({
      name: 'n'.repeat(255),
      description: 'd'.repeat(16384),
      assignment: 'Ingestion',
      onResourcesChangeCallbackUri: `https://h.example/${'p'.repeat(255 - 'https://h.example/'.length)}`,
    });
    expect(group.name).toHaveLength(255);
    expect(group.description).toHaveLength(16384);
    expect(group.onResourcesChangeCallbackUri).toHaveLength(255);
  });

  it('update changes only the fields sent; a refused update changes nothing', async () => {
    const scalable = await admin('PUT', `/api/v1/node-groups/${w.group.id}`, { scalable: true });
    expect(scalable.statusCode).toBe(200);
    expect(scalable.json()).toMatchObject({ name: 'Alice edge', assignment: 'Outgoing', scalable: true });
    const renamed = await admin('PUT', `/api/v1/node-groups/${w.group.id}`, {
      name: 'Renamed',
      description: '',
      assignment: 'Common',
    });
    expect(renamed.json()).toMatchObject({ name: 'Renamed', description: null, assignment: 'Common', scalable: true });

    const before = (await admin('GET', `/api/v1/node-groups/${w.group.id}`)).json();
    for (const payload of [{ name: '' }, { name: 'n'.repeat(256) }, { description: 'd'.repeat(16385) }, {}]) {
      const response = await admin('PUT', `/api/v1/node-groups/${w.group.id}`, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect((await admin('PUT', `/api/v1/node-groups/${w.group.id}`, { id: w.group.id })).statusCode).toBe(400);
    expect((await admin('GET', `/api/v1/node-groups/${w.group.id}`)).json()).toEqual(before);
  });

  it('writes are audited with the caller', async () => {
    await admin('PUT', `/api/v1/node-groups/${w.group.id}`, { scalable: true });
    const entries = await t.auditLog(50);
    const actions = entries.map((entry) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'node-group.create',
        'node-group.update',
        'scaling-rule.create',
        'node-group.node.attach',
      ]),
    );
    expect(entries.find((entry) => entry.action === 'node-group.update')).toMatchObject({
      actor_id: w.admin.id,
      target_id: w.group.id,
    });
  });
});

describe('scaling rules', () => {
  const url = () => `/api/v1/node-groups/${w.group.id}/scaling-rule`;

  it('applies the defaults of section 5', async () => {
    const response = await admin('POST', url(), {
      condition: { type: 'GroupFull', settings: { type: 'None', comparison: 'More', value: 0, duration: 0 } },
      action: { type: 'Increase', settings: { provider: 'DigitalOcean' } },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      enabled: true,
      actionTimeout: 0,
      action: { settings: { provider: 'DigitalOcean', value: null, bandwidthLimitMbps: 1000, amount: 1 } },
      lastActionAt: null,
    });
    const group = (await admin('GET', `/api/v1/node-groups/${w.group.id}`)).json() as NodeGroup;
    expect(group.scalingRules.map((rule) => rule.condition.type)).toEqual(['CPUGroupAvg', 'GroupFull']);
  });

  it('accepts every bound exactly', async () => {
    for (const [value, duration, amount, actionTimeout] of [
      [0, 0, 1, 0],
      [100, 300, 32, 3600],
    ]) {
      const response = await admin(
        'POST',
        url(),
        validRule({
          actionTimeout,
          condition: { type: 'BWGroupAvg', settings: { type: 'Liner', comparison: 'Less', value, duration } },
          action: {
            type: 'Reduce',
            settings: { provider: 'Oracle', value: 'VM.Standard3.Flex', bandwidthLimitMbps: 0, amount },
          },
        }),
      );
      expect(response.statusCode, response.body).toBe(201);
    }
  });

  const rule = validRule();
  const invalidRules: Array<[string, object, string, string]> = [
    [
      'value below 0',
      {
        ...rule,
        condition: { type: 'CPUGroupAvg', settings: { type: 'Liner', comparison: 'More', value: -0.1, duration: 0 } },
      },
      'body.condition.settings.value',
      'Value must be between 0 and 100',
    ],
    [
      'value above 100',
      {
        ...rule,
        condition: { type: 'CPUGroupAvg', settings: { type: 'Liner', comparison: 'More', value: 100.1, duration: 0 } },
      },
      'body.condition.settings.value',
      'Value must be between 0 and 100',
    ],
    [
      'duration above 300',
      {
        ...rule,
        condition: { type: 'CPUGroupAvg', settings: { type: 'Liner', comparison: 'More', value: 1, duration: 301 } },
      },
      'body.condition.settings.duration',
      'Duration must be between 0 and 300 seconds',
    ],
    [
      'duration below 0',
      {
        ...rule,
        condition: { type: 'CPUGroupAvg', settings: { type: 'Liner', comparison: 'More', value: 1, duration: -1 } },
      },
      'body.condition.settings.duration',
      'Duration must be between 0 and 300 seconds',
    ],
    [
      'comparison missing',
      { ...rule, condition: { type: 'CPUGroupAvg', settings: { type: 'Liner', value: 1, duration: 1 } } },
      'body.condition.settings.comparison',
      'Comparison is required',
    ],
    [
      'condition type missing',
      { ...rule, condition: { settings: { type: 'Liner', comparison: 'More', value: 1, duration: 1 } } },
      'body.condition.type',
      'Condition type is required',
    ],
    [
      'settings type not matching the condition',
      {
        ...rule,
        condition: { type: 'GroupFull', settings: { type: 'Liner', comparison: 'More', value: 1, duration: 1 } },
      },
      'body.condition.settings.type',
      'Settings type must be None for GroupFull',
    ],
    [
      'provider missing',
      { ...rule, action: { type: 'Increase', settings: { amount: 1 } } },
      'body.action.settings.provider',
      'Provider is required',
    ],
    [
      'amount 0',
      { ...rule, action: { type: 'Increase', settings: { provider: 'AWS', amount: 0 } } },
      'body.action.settings.amount',
      'Amount must be between 1 and 32',
    ],
    [
      'amount 33',
      { ...rule, action: { type: 'Increase', settings: { provider: 'AWS', amount: 33 } } },
      'body.action.settings.amount',
      'Amount must be between 1 and 32',
    ],
    [
      'bandwidth below 0',
      { ...rule, action: { type: 'Increase', settings: { provider: 'AWS', bandwidthLimitMbps: -1 } } },
      'body.action.settings.bandwidthLimitMbps',
      'Bandwidth limit must be at least 0',
    ],
    [
      'action timeout above 3600',
      { ...rule, actionTimeout: 3601 },
      'body.actionTimeout',
      'Action timeout must be between 0 and 3600 seconds',
    ],
    [
      'action timeout below 0',
      { ...rule, actionTimeout: -1 },
      'body.actionTimeout',
      'Action timeout must be between 0 and 3600 seconds',
    ],
  ];
  for (const [name, payload, path, message] of invalidRules) {
    it(`${name}: 400 naming the field and rule; neither create nor update changes anything`, async () => {
      const before = (await admin('GET', `/api/v1/node-groups/${w.group.id}`)).json() as NodeGroup;
      const created = await admin('POST', url(), payload);
      expect(created.statusCode).toBe(400);
      expect(created.json().errors).toContainEqual({ path, message });
      const updated = await admin('PUT', `${url()}/${w.ruleId}`, payload);
      expect(updated.statusCode).toBe(400);
      expect((await admin('GET', `/api/v1/node-groups/${w.group.id}`)).json()).toEqual(before);
    });
  }

  it('update replaces the rule; delete removes it', async () => {
    const updated = await admin(
      'PUT',
      `${url()}/${w.ruleId}`,
      validRule({
        enabled: false,
        actionTimeout: 120,
        action: { type: 'Reduce', settings: { provider: 'AWS', amount: 2 } },
      }),
    );
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      id: w.ruleId,
      enabled: false,
      actionTimeout: 120,
      action: { type: 'Reduce', settings: { amount: 2, bandwidthLimitMbps: 1000 } },
    });
    expect((await admin('DELETE', `${url()}/${w.ruleId}`)).statusCode).toBe(204);
    expect(((await admin('GET', `/api/v1/node-groups/${w.group.id}`)).json() as NodeGroup).scalingRules).toEqual([]);
  });
});

describe('nodes of a group', () => {
  const nodeUrl = (nodeId: string, groupId = w.group.id) => `/api/v1/node-groups/${groupId}/node/${nodeId}`;
  const getGroup = async (id = w.group.id) => (await admin('GET', `/api/v1/node-groups/${id}`)).json() as NodeGroup;

  it('attach makes a node Persistent (idempotent); detach takes it out', async () => {
    expect((await admin('PUT', nodeUrl(w.freeNodeId))).statusCode).toBe(204);
    expect((await admin('PUT', nodeUrl(w.freeNodeId))).statusCode).toBe(204);
    let group = await getGroup();
    expect(group.resources.map((r) => [r.type, r.node.name])).toEqual([
      ['Persistent', 'edge-1'],
      ['Persistent', 'edge-2'],
    ]);
    expect(group.resources[0]?.node).toMatchObject({
      connection: { hostname: 'edge-1.example.net' },
      location: { description: 'Frankfurt' },
      opened: true,
      enabled: false,
    });
    expect((await admin('DELETE', nodeUrl(w.attachedNodeId))).statusCode).toBe(204);
    group = await getGroup();
    expect(group.resources.map((r) => r.node.name)).toEqual(['edge-2']);
    expect((await admin('GET', `/api/v1/nodes/${w.attachedNodeId}`)).statusCode).toBe(200);
  });

  it('a node may be a persistent node of several groups', async () => {
    expect((await admin('PUT', nodeUrl(w.attachedNodeId, w.cloudGroup.id))).statusCode).toBe(204);
    expect((await getGroup(w.cloudGroup.id)).resources.map((r) => r.node.id)).toEqual([w.attachedNodeId]);
    expect((await getGroup()).resources.map((r) => r.node.id)).toEqual([w.attachedNodeId]);
  });

  it('the picker lists every node with the groups it is in', async () => {
    await admin('PUT', nodeUrl(w.attachedNodeId, w.cloudGroup.id));
    const response = await admin('GET', '/api/v1/node-groups/persistent/node');
    expect(response.statusCode).toBe(200);
    const candidates = response.json() as Array<{ node: { id: string; name: string }; groups: Array<{ id: string }> }>;
    expect(candidates.map((c) => [c.node.name, c.groups.map((g) => g.id).sort()])).toEqual([
      ['edge-1', [w.group.id, w.cloudGroup.id].sort()],
      ['edge-2', []],
    ]);
  });

  it('deleting a group detaches its nodes and keeps them', async () => {
    await admin('PUT', nodeUrl(w.freeNodeId));
    expect((await admin('DELETE', `/api/v1/node-groups/${w.group.id}`)).statusCode).toBe(204);
    expect((await admin('GET', `/api/v1/node-groups/${w.group.id}`)).statusCode).toBe(404);
    for (const id of [w.attachedNodeId, w.freeNodeId]) {
      expect((await admin('GET', `/api/v1/nodes/${id}`)).statusCode).toBe(200);
    }
    const candidates = (await admin('GET', '/api/v1/node-groups/persistent/node')).json() as Array<{
      groups: unknown[];
    }>;
    expect(candidates.every((c) => c.groups.length === 0)).toBe(true);
  });

  it('deleting a node takes it out of its groups', async () => {
    expect((await admin('DELETE', `/api/v1/nodes/${w.attachedNodeId}`)).statusCode).toBe(204);
    expect((await getGroup()).resources).toEqual([]);
  });

  it("deleting the owner's account deletes its groups, never the nodes", async () => {
    expect((await admin('DELETE', `/api/v1/accounts/${w.owner.id}`)).statusCode).toBe(204);
    expect((await admin('GET', `/api/v1/node-groups/${w.group.id}`)).statusCode).toBe(404);
    expect((await admin('GET', `/api/v1/nodes/${w.attachedNodeId}`)).statusCode).toBe(200);
  });

  it('the resources callback hears of every change as a signed webhook, logged with the group', async () => {
    await admin('PUT', `/api/v1/node-groups/${w.group.id}`, {
      onResourcesChangeCallbackUri: `${receiver.url}/resources`,
    });
    await admin('PUT', nodeUrl(w.freeNodeId));
    receiver.answer(200, 500);
    await t.app.services.webhooks.dispatcher.drain();
    await admin('DELETE', nodeUrl(w.attachedNodeId));
    await t.app.services.webhooks.dispatcher.drain();
    const secret = (await call('USER owner', 'GET', '/api/v1/webhooks/secret')).json().secret;
    const bodies = receiver.received.map(
      (request) =>
        new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as {
          type: string;
          data: NodeGroup;
        },
    );
    expect(bodies.map((body) => [body.type, body.data.id, body.data.resources.map((r) => r.node.id)])).toEqual([
      ['node-group.resources-changed', w.group.id, [w.attachedNodeId, w.freeNodeId]],
      ['node-group.resources-changed', w.group.id, [w.freeNodeId]],
    ]);
    expect(bodies[0]?.data.resources[0]).toMatchObject({
      type: 'Persistent',
      node: { name: 'edge-1', connection: { hostname: 'edge-1.example.net', port: 4242 } },
    });
    const log = await call('USER owner', 'GET', `/api/v1/webhooks/deliveries?resourceId=${w.group.id}`);
    expect(log.json().map((d: { status: string; lastStatusCode: number }) => [d.status, d.lastStatusCode])).toEqual([
      ['Pending', 500],
      ['Delivered', 200],
    ]);
  });

  it("the streaming cloud's own groups are signed with the platform's secret, which only ADMIN sees", async () => {
    await admin('PUT', `/api/v1/node-groups/${w.cloudGroup.id}`, {
      onResourcesChangeCallbackUri: `${receiver.url}/cloud`,
    });
    await admin('PUT', `/api/v1/node-groups/${w.cloudGroup.id}/node/${w.freeNodeId}`);
    await t.app.services.webhooks.dispatcher.drain();
    const [request] = await receiver.waitFor(1);
    const platform = await admin('GET', '/api/v1/webhooks/secret?account=platform');
    expect(platform.json().accountId).toBeNull();
    expect(
      new Webhook(platform.json().secret).verify(request?.body ?? '', request?.headers as Record<string, string>),
    ).toMatchObject({ type: 'node-group.resources-changed', data: { id: w.cloudGroup.id, ownerId: null } });
    expect((await call('USER owner', 'GET', '/api/v1/webhooks/secret?account=platform')).statusCode).toBe(404);
    expect((await admin('GET', '/api/v1/webhooks/deliveries?account=platform')).json()).toEqual([
      expect.objectContaining({ accountId: null, resourceType: 'node-group', status: 'Delivered' }),
    ]);
  });
});

describe("'Allocate node' and scaling events", () => {
  const allocate = (groupId = w.group.id) => admin('POST', `/api/v1/node-groups/${groupId}/allocate`);

  it("asks the provider of the group's Increase rule for one node, registered as Allocated", async () => {
    await admin(
      'PUT',
      `/api/v1/node-groups/${w.group.id}/scaling-rule/${w.ruleId}`,
      validRule({
        action: {
          type: 'Increase',
          settings: { provider: 'AWS', value: 'c7i.xlarge', bandwidthLimitMbps: 2500, amount: 5 },
        },
      }),
    );
    const response = await allocate();
    expect(response.statusCode, response.body).toBe(201);
    expect(aws.launches).toHaveLength(1);
    expect(aws.launches[0]).toMatchObject({
      group: { id: w.group.id, name: 'Alice edge' },
      value: 'c7i.xlarge',
      bandwidthLimitMbps: 2500,
    });
    expect(aws.launches[0]?.token).toMatch(/^scn_/);
    const body = response.json();
    expect(body.event).toMatchObject({ type: 'ProviderCall', action: 'Allocate', provider: 'AWS', success: true });
    expect(body.resources).toHaveLength(1);
    expect(body.resources[0]).toMatchObject({
      type: 'Allocated',
      provider: 'AWS',
      externalId: 'aws-1',
      node: {
        connection: { hostname: 'aws-1.test', port: 4242 },
        settings: { bandwidthLimitMbps: 2500 },
        opened: true,
        enabled: true,
      },
    });

    // the allocated node's token works on the node-facing API
    const whoami = await t.request({
      method: 'GET',
      url: '/api/v1/node/whoami',
      headers: { authorization: `Bearer ${aws.launches[0]?.token}` },
    });
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json().id).toBe(body.resources[0].node.id);

    const group = (await admin('GET', `/api/v1/node-groups/${w.group.id}`)).json() as NodeGroup;
    expect(group.resources.map((r) => r.type)).toEqual(['Persistent', 'Allocated']);
    const events = (await call('USER owner', 'GET', `/api/v1/node-groups/${w.group.id}/scaling-events`)).json();
    expect(events).toHaveLength(1);
    expect(events[0].message).toBe('AWS started 1 node: aws-1 (aws-1.test)');
  });

  it('is a 409 without any rule to take a provider from', async () => {
    const response = await allocate(w.cloudGroup.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('NO_PROVIDER');
  });

  it('a provider without credentials answers 503 with what to set, recorded as a failed event', async () => {
    await admin(
      'PUT',
      `/api/v1/node-groups/${w.group.id}/scaling-rule/${w.ruleId}`,
      validRule({
        action: { type: 'Increase', settings: { provider: 'Oracle' } },
      }),
    );
    const response = await allocate();
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      code: 'PROVIDER_NOT_CONFIGURED',
      message: 'AWS credentials are not configured (set AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION)',
    });
    const events = (await admin('GET', `/api/v1/node-groups/${w.group.id}/scaling-events`)).json() as ScalingEvent[];
    expect(events[0]).toMatchObject({ success: false, action: 'Allocate' });
    expect(events[0]?.message).toContain('AWS credentials are not configured');
    expect(((await admin('GET', `/api/v1/node-groups/${w.group.id}`)).json() as NodeGroup).resources).toHaveLength(1);
  });

  it('a failing provider call is a 502', async () => {
    aws.failWith = new ProviderError('AWS answered 400: InsufficientInstanceCapacity');
    const response = await allocate();
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe('AWS answered 400: InsufficientInstanceCapacity');
  });

  it('events are newest first and limited', async () => {
    for (let i = 0; i < 3; i++) await allocate();
    const url = `/api/v1/node-groups/${w.group.id}/scaling-events`;
    const events = (await admin('GET', `${url}?limit=2`)).json() as ScalingEvent[];
    expect(events.map((e) => e.message)).toEqual([
      'AWS started 1 node: aws-3 (aws-3.test)',
      'AWS started 1 node: aws-2 (aws-2.test)',
    ]);
    expect((await admin('GET', `${url}?limit=0`)).statusCode).toBe(400);
    expect((await admin('GET', `${url}?limit=201`)).statusCode).toBe(400);
  });
});

describe('OpenAPI', () => {
  it('documents every node group route', async () => {
    const response = await t.request({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    for (const path of [
      '/api/v1/node-groups',
      '/api/v1/node-groups/persistent/node',
      '/api/v1/node-groups/{id}',
      '/api/v1/node-groups/{id}/scaling-rule',
      '/api/v1/node-groups/{id}/scaling-rule/{ruleId}',
      '/api/v1/node-groups/{id}/node/{nodeId}',
      '/api/v1/node-groups/{id}/scaling-events',
      '/api/v1/node-groups/{id}/allocate',
    ]) {
      expect(paths).toContain(path);
    }
  });
});
