import type { NodeGroup, ScalingEvent } from '@streamcloud/contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { type TestAccount, useTestApp } from '../../../test/helpers.js';
import { ProviderError } from './providers/provider.js';
import { recordingProviders } from './providers/recording.js';

/** The fake clock every part of the app reads; tests move it by hand. */
let nowMs = Math.floor(Date.now() / 1000) * 1000;
const clock = { now: () => new Date(nowMs) };
const advance = (seconds: number) => {
  nowMs += seconds * 1000;
};
const { registry, providers } = recordingProviders();
const aws = providers.AWS;

const t = useTestApp({ clock, scaling: { providers: registry, autoscaler: { sampleMaxAgeMs: 60_000 } } });

let root: TestAccount;
let group: NodeGroup;
let nodeA: string;
let nodeB: string;

const api = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
  const response = await t.request({ method, url, token: root.token, ...(payload ? { payload } : {}) });
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.statusCode === 204 ? undefined : response.json();
};

async function createNode(name: string): Promise<string> {
  const node = await api('POST', '/api/v1/nodes', {
    name,
    connection: { hostname: `${name}.example.net` },
    settings: { bandwidthLimitMbps: 1000 },
  });
  return node.id;
}

/** One sample per node every `step` seconds over the last `seconds` seconds (now included). */
async function load(
  seconds: number,
  values: { cpu?: number; bw?: number },
  nodeIds = [nodeA, nodeB],
  step = 10,
): Promise<void> {
  const rows = nodeIds.flatMap((nodeId) =>
    Array.from({ length: Math.floor(seconds / step) + 1 }, (_, index) => ({
      node_id: nodeId,
      at: new Date(nowMs - (seconds - index * step) * 1000),
      cpu_percent: values.cpu ?? 0,
      bandwidth_mbps: values.bw ?? 0,
      sessions: 0,
    })),
  );
  await t.database.db
    .insertInto('node_load_samples')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['node_id', 'at']).doUpdateSet((eb) => ({
        cpu_percent: eb.ref('excluded.cpu_percent'),
        bandwidth_mbps: eb.ref('excluded.bandwidth_mbps'),
      })),
    )
    .execute();
}

interface RuleShape {
  enabled?: boolean;
  actionTimeout?: number;
  type?: 'CPUGroupAvg' | 'BWGroupAvg' | 'GroupFull';
  comparison?: 'More' | 'Less';
  value?: number;
  duration?: number;
  action?: 'Increase' | 'Reduce';
  amount?: number;
}

async function addRule(shape: RuleShape = {}): Promise<string> {
  const type = shape.type ?? 'CPUGroupAvg';
  const rule = await api('POST', `/api/v1/node-groups/${group.id}/scaling-rule`, {
    enabled: shape.enabled ?? true,
    actionTimeout: shape.actionTimeout ?? 0,
    condition: {
      type,
      settings: {
        type: type === 'GroupFull' ? 'None' : 'Liner',
        comparison: shape.comparison ?? 'More',
        value: shape.value ?? 80,
        duration: shape.duration ?? 60,
      },
    },
    action: { type: shape.action ?? 'Increase', settings: { provider: 'AWS', amount: shape.amount ?? 1 } },
  });
  return rule.id;
}

const tick = () => t.app.services.scaling.autoscaler.tick();
const events = async () =>
  (await api('GET', `/api/v1/node-groups/${group.id}/scaling-events?limit=200`)) as ScalingEvent[];
const resources = async () => ((await api('GET', `/api/v1/node-groups/${group.id}`)) as NodeGroup).resources;

beforeEach(async () => {
  aws.launches.length = 0;
  aws.terminated.length = 0;
  aws.failWith = null;
  root = await t.createAccount('ADMIN', 'root');
  group = await api('POST', '/api/v1/node-groups', { name: 'Edge EU', assignment: 'Outgoing' });
  await api('PUT', `/api/v1/node-groups/${group.id}`, { scalable: true });
  nodeA = await createNode('edge-a');
  nodeB = await createNode('edge-b');
  await api('PUT', `/api/v1/node-groups/${group.id}/node/${nodeA}`);
  await api('PUT', `/api/v1/node-groups/${group.id}/node/${nodeB}`);
});

describe('the autoscaler', () => {
  it('acts when the condition holds over the duration: a Decision and a provider call, an Allocated node', async () => {
    const ruleId = await addRule({ value: 80, duration: 60 });
    await load(60, { cpu: 90 });
    const report = await tick();
    expect(report.acted).toEqual([{ ruleId, groupId: group.id, action: 'Increase' }]);
    expect(aws.launches).toHaveLength(1);
    expect(aws.launches[0]?.group).toEqual({ id: group.id, name: 'Edge EU' });
    const list = await events();
    expect(list.map((e) => [e.type, e.action, e.success, e.ruleId])).toEqual([
      ['ProviderCall', 'Increase', true, ruleId],
      ['Decision', 'Increase', true, ruleId],
    ]);
    expect(list[1]?.message).toBe('CPU average 90% > 80% for 60 s: Increase by 1 through AWS');
    expect((await resources()).map((r) => r.type)).toEqual(['Persistent', 'Persistent', 'Allocated']);
    const rule = ((await api('GET', `/api/v1/node-groups/${group.id}`)) as NodeGroup).scalingRules[0];
    expect(rule?.lastActionAt).toBe(new Date(nowMs).toISOString());
  });

  it('value boundary: More needs the average strictly above the value', async () => {
    await addRule({ value: 80, duration: 0 });
    await load(20, { cpu: 80 });
    expect((await tick()).acted).toEqual([]);
    await load(0, { cpu: 80.5 });
    expect((await tick()).acted).toHaveLength(1);
  });

  it('comparison: Less needs the average strictly below the value', async () => {
    await addRule({ comparison: 'Less', value: 20, duration: 0 });
    await load(20, { cpu: 20 });
    expect((await tick()).acted).toEqual([]);
    await load(0, { cpu: 19.5 });
    expect((await tick()).acted).toHaveLength(1);
  });

  it('duration boundary: the condition must hold from now - duration on', async () => {
    await addRule({ value: 80, duration: 60 });
    await load(50, { cpu: 90 }, [nodeA, nodeB], 10);
    // history reaches back 50 s only
    expect((await tick()).acted).toEqual([]);
    advance(9);
    await load(0, { cpu: 90 });
    // 59 s of history now
    expect((await tick()).acted).toEqual([]);
    advance(1);
    // the samples of 60 s ago now cover the window's start
    expect((await tick()).acted).toHaveLength(1);
  });

  it('a dip inside the window holds the action back until the window has passed it', async () => {
    await addRule({ value: 80, duration: 30 });
    await load(60, { cpu: 90 });
    await t.database.db
      .updateTable('node_load_samples')
      .set({ cpu_percent: 10 })
      .where('node_id', '=', nodeA)
      .where('at', '=', new Date(nowMs - 20_000))
      .execute();
    expect((await tick()).acted).toEqual([]);
    advance(10);
    await load(0, { cpu: 90 });
    // the dip lasts until node a's next sample, 10 s after it: still inside the window
    expect((await tick()).acted).toEqual([]);
    advance(9.999);
    expect((await tick()).acted).toEqual([]);
    advance(0.001);
    // the window now starts at that next sample
    expect((await tick()).acted).toHaveLength(1);
  });

  it('timeout: a rule waits actionTimeout seconds after acting', async () => {
    await addRule({ value: 50, duration: 0, actionTimeout: 60 });
    await load(0, { cpu: 90 });
    expect((await tick()).acted).toHaveLength(1);
    advance(59);
    await load(0, { cpu: 90 });
    expect((await tick()).acted).toEqual([]);
    advance(1);
    await load(0, { cpu: 90 });
    expect((await tick()).acted).toHaveLength(1);
    expect(aws.launches).toHaveLength(2);
  });

  it('timeout 0: the rule may act on every tick while the condition holds', async () => {
    await addRule({ value: 50, duration: 0, actionTimeout: 0 });
    await load(0, { cpu: 90 });
    expect((await tick()).acted).toHaveLength(1);
    expect((await tick()).acted).toHaveLength(1);
  });

  it('a disabled rule never acts', async () => {
    const ruleId = await addRule({ enabled: false, value: 0, duration: 0 });
    await load(0, { cpu: 100 });
    expect(await tick()).toEqual({ evaluated: 0, acted: [] });
    await api('PUT', `/api/v1/node-groups/${group.id}/scaling-rule/${ruleId}`, {
      enabled: true,
      actionTimeout: 0,
      condition: { type: 'CPUGroupAvg', settings: { type: 'Liner', comparison: 'More', value: 0, duration: 0 } },
      action: { type: 'Increase', settings: { provider: 'AWS' } },
    });
    expect((await tick()).acted).toHaveLength(1);
  });

  it('a group that is not scalable never scales', async () => {
    await addRule({ value: 0, duration: 0 });
    await load(0, { cpu: 100 });
    await api('PUT', `/api/v1/node-groups/${group.id}`, { scalable: false });
    expect(await tick()).toEqual({ evaluated: 0, acted: [] });
    expect(aws.launches).toEqual([]);
    expect(await events()).toEqual([]);
  });

  it('Increase by amount starts that many nodes, each with its own token', async () => {
    await addRule({ value: 50, duration: 0, amount: 3 });
    await load(0, { cpu: 90 });
    await tick();
    expect(aws.launches).toHaveLength(3);
    expect(new Set(aws.launches.map((spec) => spec.token)).size).toBe(3);
    expect((await resources()).filter((r) => r.type === 'Allocated')).toHaveLength(3);
  });

  it('Reduce releases the newest allocated nodes, never persistent ones', async () => {
    const increase = await addRule({ value: 50, duration: 0, action: 'Increase', amount: 2 });
    await load(0, { cpu: 90 });
    await tick();
    const allocated = (await resources()).filter((r) => r.type === 'Allocated');
    expect(allocated).toHaveLength(2);
    await api('DELETE', `/api/v1/node-groups/${group.id}/scaling-rule/${increase}`);

    await addRule({ comparison: 'Less', value: 20, duration: 0, action: 'Reduce', amount: 5 });
    advance(1);
    await load(0, { cpu: 5 }, [nodeA, nodeB]);
    await tick();
    expect(aws.terminated.sort()).toEqual(['aws-1', 'aws-2']);
    expect((await resources()).map((r) => [r.type, r.node.id])).toEqual([
      ['Persistent', nodeA],
      ['Persistent', nodeB],
    ]);
    for (const resource of allocated) {
      const response = await t.request({ method: 'GET', url: `/api/v1/nodes/${resource.node.id}`, token: root.token });
      expect(response.statusCode).toBe(404);
    }
    advance(1);
    await load(0, { cpu: 5 }, [nodeA, nodeB]);
    await tick();
    expect((await events())[0]?.message).toBe('Nothing to release: the group has no allocated nodes');
  });

  it('BWGroupAvg compares the bandwidth against the nodes’ limits', async () => {
    await addRule({ type: 'BWGroupAvg', value: 75, duration: 0 });
    await load(0, { bw: 750 });
    expect((await tick()).acted).toEqual([]);
    await load(0, { bw: 760 });
    expect((await tick()).acted).toHaveLength(1);
    expect((await events())[1]?.message).toBe(
      'Bandwidth average 76% of the limit > 75% for 0 s: Increase by 1 through AWS',
    );
  });

  it('GroupFull acts only when every node is at its limit', async () => {
    await addRule({ type: 'GroupFull', duration: 0 });
    await load(0, { bw: 1000 }, [nodeA]);
    await load(0, { bw: 999 }, [nodeB]);
    expect((await tick()).acted).toEqual([]);
    await load(0, { bw: 1000 }, [nodeB]);
    expect((await tick()).acted).toHaveLength(1);
  });

  it('a failing provider is recorded, and the rule still waits its timeout', async () => {
    aws.failWith = new ProviderError('AWS answered 503: RequestLimitExceeded');
    await addRule({ value: 50, duration: 0, actionTimeout: 30 });
    await load(0, { cpu: 90 });
    expect((await tick()).acted).toHaveLength(1);
    const [call] = await events();
    expect(call).toMatchObject({
      type: 'ProviderCall',
      success: false,
      message: 'AWS could not start 1 node: AWS answered 503: RequestLimitExceeded',
    });
    advance(10);
    await load(0, { cpu: 90 });
    expect((await tick()).acted).toEqual([]);
  });

  it('ticks do not overlap and a rule acts once per claim', async () => {
    await addRule({ value: 50, duration: 0, actionTimeout: 60 });
    await load(0, { cpu: 90 });
    const [first, second] = await Promise.all([tick(), tick()]);
    expect(first).toBe(second);
    expect(aws.launches).toHaveLength(1);
  });

  it('the loop runs by itself once started, and stops', async () => {
    await addRule({ value: 50, duration: 0, actionTimeout: 3600 });
    await load(0, { cpu: 90 });
    const loop = t.app.services.scaling.autoscaler;
    loop.start(20);
    const deadline = Date.now() + 5000;
    while (aws.launches.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    await loop.stop();
    expect(aws.launches).toHaveLength(1);
  });
});
