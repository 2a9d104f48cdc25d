import { type BeaconEvent, type QualityRule, type QualityRuleBody, webhookEventSchema } from '@streamcloud/contract';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concurrently } from '../../../test/concurrency.js';
import { expectValidationError, ownerOnly, roleMatrixTests, TestClock, useTestApp } from '../../../test/helpers.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/webhook-receiver.js';
import { type QualityRuleRow, QualityRulesRepository } from './quality-rules.repository.js';

/** Issue 37: a stream's quality rule, judged by the periodic check, sent as quality.degraded / quality.recovered. */
const clock = new TestClock();
const t = useTestApp({ clock }, { roles: true });
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const MINUTE = 60_000;
const RULE: QualityRuleBody = { enabled: true, metric: 'rebufferPercent', threshold: 2, windowMinutes: 5 };
/** 10 s of a session: 9 s played and one stall of 1 s (a 10 % rebuffer ratio), or 10 s played and none. */
const STALLING: BeaconEvent[] = [
  { type: 'startup', at: 400, startupMs: 300, ttffMs: 900 },
  { type: 'rebuffer', at: 5000, durationMs: 1000 },
  { type: 'watch', at: 10_000, watchedMs: 9000 },
];
const SMOOTH: BeaconEvent[] = [
  { type: 'startup', at: 400, startupMs: 300, ttffMs: 900 },
  { type: 'watch', at: 10_000, watchedMs: 10_000 },
];

const ruleUrl = (streamId: string) => `/api/v1/inputs/${streamId}/quality-rule`;

async function watchedStream(callback = true) {
  const input = await t.createInput(callback ? { callbackUri: `${receiver.url}/quality` } : {});
  const output = await t.createOutput({ streamId: input.id, format: 'WebRTC' });
  return { input, output };
}

async function setRule(streamId: string, body: object = RULE) {
  const response = await t.request({
    method: 'PUT',
    url: ruleUrl(streamId),
    token: t.roles.owner.token,
    payload: body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as QualityRule;
}

async function readRule(streamId: string): Promise<QualityRule> {
  const response = await t.request({ method: 'GET', url: ruleUrl(streamId), token: t.roles.owner.token });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** `count` playback sessions of the output, each a new viewer session sending `events` now. */
async function viewers(outputId: string, count: number, events: BeaconEvent[], player = 'embed') {
  for (let index = 0; index < count; index++) {
    const info = await t.request({ method: 'GET', url: `/api/v1/play/${outputId}` });
    expect(info.statusCode, info.body).toBe(200);
    const response = await t.request({
      method: 'POST',
      url: `/api/v1/play/${outputId}/beacons`,
      payload: { session: info.json().viewerSession, player, sentAt: 10_000, events },
    });
    expect(response.statusCode, response.body).toBe(204);
  }
}

const check = () => t.app.services.qualityRules.check();

/** The stream's webhook deliveries, oldest first (the outbox: what was decided, before any attempt). */
async function deliveryTypes(streamId: string): Promise<string[]> {
  const response = await t.request({
    method: 'GET',
    url: `/api/v1/webhooks/deliveries?streamId=${streamId}`,
    token: t.roles.owner.token,
  });
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as Array<{ type: string }>).map((delivery) => delivery.type).reverse();
}

describe('role matrix', () => {
  roleMatrixTests(
    [
      {
        name: 'GET /inputs/{id}/quality-rule',
        call: ({ id }) => ['GET', ruleUrl(id)],
        expected: ownerOnly(200),
      },
      {
        name: 'PUT /inputs/{id}/quality-rule',
        call: ({ id }) => ['PUT', ruleUrl(id), RULE],
        expected: ownerOnly(200),
      },
    ],
    {
      roles: () => t.roles,
      subject: () => t.createInput(),
      check: (response) => {
        if (response.statusCode === 200)
          expect(response.json()).toMatchObject({ metric: 'rebufferPercent', state: 'OK' });
      },
    },
  );
});

describe('the rule', () => {
  it('is off until set, then answers what was set, at least 5 viewer sessions, and OK', async () => {
    const { input } = await watchedStream(false);
    expect(await readRule(input.id)).toMatchObject({ enabled: false, state: 'OK', since: null, minViewers: 5 });
    await setRule(input.id, { enabled: true, metric: 'ttffP95Ms', threshold: 2000, windowMinutes: 10 });
    expect(await readRule(input.id)).toMatchObject({
      streamId: input.id,
      enabled: true,
      metric: 'ttffP95Ms',
      threshold: 2000,
      windowMinutes: 10,
      state: 'OK',
    });
  });

  it.each([
    [{ ...RULE, threshold: 150 }, 'body.threshold', 'threshold must be at most 100 for rebufferPercent (a percentage)'],
    [
      { ...RULE, metric: 'ttffP95Ms', threshold: 600_001 },
      'body.threshold',
      'threshold must be at most 600000 for ttffP95Ms (milliseconds)',
    ],
    [{ ...RULE, threshold: -1 }, 'body.threshold', 'threshold must be at least 0'],
    [{ ...RULE, windowMinutes: 0 }, 'body.windowMinutes', 'windowMinutes must be at least 1'],
    [{ ...RULE, windowMinutes: 61 }, 'body.windowMinutes', 'windowMinutes must be at most 60'],
    [{ ...RULE, windowMinutes: 2.5 }, 'body.windowMinutes', 'windowMinutes must be a whole number'],
    [{ ...RULE, metric: 'bitrate' }, 'body.metric', undefined],
    [{ ...RULE, enabled: 'yes' }, 'body.enabled', 'enabled must be true or false'],
    [{ ...RULE, extra: 1 }, 'body', undefined],
  ])('refuses %j with a 400 naming the field, and changes nothing', async (body, path, message) => {
    const { input } = await watchedStream(false);
    await setRule(input.id, { ...RULE, enabled: false });
    const response = await t.request({
      method: 'PUT',
      url: ruleUrl(input.id),
      token: t.roles.owner.token,
      payload: body,
    });
    expectValidationError(response, path, message);
    expect(await readRule(input.id)).toMatchObject({ enabled: false, metric: 'rebufferPercent', threshold: 2 });
  });
});

describe('the check', () => {
  it('sends quality.degraded once when the rule starts to hold and quality.recovered once when it stops, signed', async () => {
    // The stalls 6 minutes ago, the recovery now: the deliveries are signed now, within the receiver's tolerance.
    clock.shift(-6 * MINUTE);
    const { input, output } = await watchedStream();
    await setRule(input.id);
    await viewers(output.id, 5, STALLING);
    // Two checks at once (two API processes): one wins the change, the other sends nothing.
    const runs = await concurrently(2, () => check());
    expect(runs.map((run) => run.changed).sort()).toEqual([0, 1]);
    expect(await check()).toEqual({ checked: 1, changed: 0 });
    expect(await readRule(input.id)).toMatchObject({ state: 'Degraded', value: 10, viewers: 5 });

    // The window moves past the stalls; the viewers now play smoothly.
    clock.advance(6 * MINUTE);
    await viewers(output.id, 5, SMOOTH);
    expect(await check()).toEqual({ checked: 1, changed: 1 });
    expect(await check()).toEqual({ checked: 1, changed: 0 });
    expect(await readRule(input.id)).toMatchObject({ state: 'OK', value: 0, viewers: 5 });

    await t.app.services.webhooks.dispatcher.drain();
    const requests = await receiver.waitFor(2);
    const secret = (
      await t.request({ method: 'GET', url: '/api/v1/webhooks/secret', token: t.roles.owner.token })
    ).json().secret;
    const webhook = new Webhook(secret);
    const events = requests.map((request) => {
      const body = webhook.verify(request.body, request.headers as Record<string, string>) as { type: string };
      return webhookEventSchema(body.type as 'quality.degraded').parse(body);
    });
    expect(events.map((event) => event.type)).toEqual(['quality.degraded', 'quality.recovered']);
    expect(events[0]?.data).toMatchObject({
      streamId: input.id,
      metric: 'rebufferPercent',
      threshold: 2,
      state: 'Degraded',
      check: { value: 10, viewers: 5 },
    });
    expect(events[1]?.data).toMatchObject({ state: 'OK', check: { value: 0, viewers: 5 } });
    expect(receiver.received).toHaveLength(2);
  });

  it('does not hold with fewer than 5 viewer sessions (previews are not viewers), nor while off', async () => {
    const { input, output } = await watchedStream();
    await setRule(input.id);
    await viewers(output.id, 4, STALLING);
    await viewers(output.id, 3, STALLING, 'preview');
    expect(await check()).toEqual({ checked: 1, changed: 0 });
    expect(await readRule(input.id)).toMatchObject({ state: 'OK', value: 10, viewers: 4 });

    await setRule(input.id, { ...RULE, enabled: false });
    await viewers(output.id, 1, STALLING);
    expect(await check()).toEqual({ checked: 0, changed: 0 });
    expect(await deliveryTypes(input.id)).toEqual([]);
  });

  it('sends quality.recovered when a Degraded rule is turned off, and a check of the old rule changes nothing', async () => {
    const { input, output } = await watchedStream();
    await setRule(input.id, { ...RULE, metric: 'ttffP95Ms', threshold: 500 });
    await viewers(output.id, 5, STALLING);
    expect(await check()).toMatchObject({ changed: 1 });
    // A check that read the rule before this save cannot change its state (the revision moved on).
    const [read] = await t.database.db.selectFrom('quality_rules').selectAll().execute();
    await setRule(input.id, { ...RULE, metric: 'ttffP95Ms', threshold: 500, enabled: false });
    const rules = new QualityRulesRepository(t.database.db);
    expect(
      await rules.switchState(read as QualityRuleRow, false, { at: clock.now(), value: 0, viewers: 5 }),
    ).toBeUndefined();
    expect(await readRule(input.id)).toMatchObject({ enabled: false, state: 'Degraded' });
    expect(await check()).toEqual({ checked: 1, changed: 1 });
    expect(await readRule(input.id)).toMatchObject({ state: 'OK' });
    expect(await deliveryTypes(input.id)).toEqual(['quality.degraded', 'quality.recovered']);
  });

  it('goes with its stream', async () => {
    const { input } = await watchedStream(false);
    await setRule(input.id);
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/v1/inputs/${input.id}`,
      token: t.roles.owner.token,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const rows = await sql<{ n: number }>`select count(*)::int as n from quality_rules`.execute(t.database.db);
    expect(rows.rows[0]?.n).toBe(0);
  });
});
