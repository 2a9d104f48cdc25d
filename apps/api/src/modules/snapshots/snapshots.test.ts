import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type MatrixRow, ownerOnly, roleMatrixTests, useTestApp } from '../../../test/helpers.js';
import { makeJpeg, makePng } from '../../../test/images.js';

const t = useTestApp({}, { roles: true });
const settings = { format: 'PNG', quality: 'High', interval: 2 };
const url = (streamId: string, direction = 'incoming') => `/api/v1/snapshots/stream/${streamId}/${direction}`;
const put = (streamId: string, payload: unknown, direction = 'incoming') =>
  t.request({
    method: 'PUT',
    url: url(streamId, direction),
    token: t.roles.owner.token,
    payload: JSON.stringify(payload),
    headers: { 'content-type': 'application/json' },
  });
const snapshot = (streamId: string, image: Buffer, extra: object = {}) => ({
  id: randomUUID(),
  kind: 'snapshot',
  streamId,
  direction: 'incoming',
  image: image.toString('base64'),
  ...extra,
});

describe('role matrix', () => {
  const rows: MatrixRow<string>[] = [
    {
      name: 'GET settings',
      call: (id) => ['GET', url(id)],
      expected: ownerOnly(200),
    },
    {
      name: 'PUT settings',
      call: (id) => ['PUT', url(id, 'outgoing'), settings],
      expected: ownerOnly(200),
    },
    {
      name: 'DELETE settings',
      call: (id) => ['DELETE', url(id)],
      expected: ownerOnly(204),
    },
    {
      name: 'GET image',
      call: (id) => ['GET', `${url(id)}/image`],
      expected: ownerOnly(200),
    },
  ];
  roleMatrixTests(rows, {
    roles: () => t.roles,
    subject: async () => {
      const node = await t.createNode(t.roles.admin);
      const input = await t.createInput();
      await put(input.id, settings);
      await t.report(node.token, [snapshot(input.id, makePng(32, 18))]);
      return input.id;
    },
  });

  it('GET /node/inputs/{id}/snapshots answers the serving node only, and no user token', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    await put(input.id, settings);
    const stranger = await t.createNode(t.roles.admin, { enabled: false });
    const target = `/api/v1/node/inputs/${input.id}/snapshots`;
    expect((await t.request({ method: 'GET', url: target, token: node.token })).json()).toEqual({
      incoming: settings,
      outgoing: null,
    });
    expect((await t.request({ method: 'GET', url: target, token: stranger.token })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: target, token: t.roles.owner.token })).statusCode).toBe(401);
  });
});

describe('snapshot settings', () => {
  it('round-trips per direction; null and DELETE turn a direction off', async () => {
    const input = await t.createInput();
    expect((await t.request({ method: 'GET', url: url(input.id), token: t.roles.owner.token })).json()).toBeNull();
    expect((await put(input.id, settings)).json()).toEqual(settings);
    expect((await put(input.id, { format: 'JPEG', quality: 'Low', interval: 30 }, 'outgoing')).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: url(input.id), token: t.roles.owner.token })).json()).toEqual(
      settings,
    );
    expect(
      (await t.request({ method: 'GET', url: url(input.id, 'outgoing'), token: t.roles.owner.token })).json(),
    ).toEqual({
      format: 'JPEG',
      quality: 'Low',
      interval: 30,
    });
    const off = await put(input.id, null);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toBeNull();
    expect((await t.request({ method: 'GET', url: url(input.id), token: t.roles.owner.token })).json()).toBeNull();
    expect(
      (await t.request({ method: 'DELETE', url: url(input.id, 'outgoing'), token: t.roles.owner.token })).statusCode,
    ).toBe(204);
    expect(
      (await t.request({ method: 'GET', url: url(input.id, 'outgoing'), token: t.roles.owner.token })).json(),
    ).toBeNull();
  });

  it('checks the form rules: interval a whole number 1 to 30, format and quality required', async () => {
    const input = await t.createInput();
    const cases: Array<[object, string]> = [
      [{ ...settings, interval: 0 }, 'body.interval: Interval must be at least 1'],
      [{ ...settings, interval: 31 }, 'body.interval: Interval must be at most 30'],
      [{ ...settings, interval: 1.5 }, 'body.interval: Interval must be a whole number'],
      [{ format: 'PNG', quality: 'High' }, 'body.interval: Interval is required'],
      [{ quality: 'High', interval: 5 }, 'body.format: Format is required'],
      [{ format: 'GIF', quality: 'High', interval: 5 }, 'body.format: Format is required'],
      [{ format: 'PNG', interval: 5 }, 'body.quality: Quality is required'],
    ];
    for (const [payload, message] of cases) {
      const response = await put(input.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().message).toBe(`Invalid request: ${message}`);
    }
    for (const interval of [1, 30]) expect((await put(input.id, { ...settings, interval })).statusCode).toBe(200);
    expect(
      (await t.request({ method: 'GET', url: url(input.id, 'sideways'), token: t.roles.owner.token })).statusCode,
    ).toBe(400);
  });
});

describe('snapshot images', () => {
  it('answers 404 until the serving node sends one, then the latest bytes with no-cache', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    await put(input.id, settings);
    const image = `${url(input.id)}/image`;
    const none = await t.request({ method: 'GET', url: image, token: t.roles.owner.token });
    expect(none.statusCode).toBe(404);
    expect(none.headers['cache-control']).toBe('no-store');

    const first = makePng(64, 36);
    expect(
      (await t.report(node.token, [snapshot(input.id, first, { at: '2020-01-01T10:00:00.000Z' })])).statusCode,
    ).toBe(200);
    const answer = await t.request({ method: 'GET', url: `${image}?t=${Date.now()}`, token: t.roles.owner.token });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('image/png');
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.rawPayload.equals(first)).toBe(true);
    // Every other answer stays no-store.
    expect(
      (await t.request({ method: 'GET', url: url(input.id), token: t.roles.owner.token })).headers['cache-control'],
    ).toBe('no-store');

    const second = makeJpeg(1280, 720, { bytes: 4000 });
    await t.report(node.token, [snapshot(input.id, second, { at: '2020-01-01T10:00:05.000Z' })]);
    const older = makePng(8, 8);
    await t.report(node.token, [snapshot(input.id, older, { at: '2020-01-01T09:59:00.000Z' })]);
    const latest = await t.request({ method: 'GET', url: image, token: t.roles.owner.token });
    expect(latest.headers['content-type']).toBe('image/jpeg');
    expect(latest.rawPayload.equals(second)).toBe(true);
    const rows = await sql<{ count: number }>`select count(*)::int as count from snapshot_images`.execute(
      t.database.db,
    );
    expect(rows.rows[0]?.count).toBe(1);
  });

  it('keeps images only for directions that take snapshots, from the node serving the stream', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    await t.report(node.token, [snapshot(input.id, makePng(4, 4))]);
    expect(
      (await t.request({ method: 'GET', url: `${url(input.id)}/image`, token: t.roles.owner.token })).statusCode,
    ).toBe(404);
    await put(input.id, settings);
    const stranger = await t.createNode(t.roles.admin, { enabled: false });
    await t.report(stranger.token, [snapshot(input.id, makePng(4, 4))]);
    expect(
      (await t.request({ method: 'GET', url: `${url(input.id)}/image`, token: t.roles.owner.token })).statusCode,
    ).toBe(404);
    await t.report(node.token, [snapshot(input.id, makePng(4, 4))]);
    expect(
      (await t.request({ method: 'GET', url: `${url(input.id)}/image`, token: t.roles.owner.token })).statusCode,
    ).toBe(200);
    // Turning the direction off drops its image.
    await t.request({ method: 'DELETE', url: url(input.id), token: t.roles.owner.token });
    expect(
      (await t.request({ method: 'GET', url: `${url(input.id)}/image`, token: t.roles.owner.token })).statusCode,
    ).toBe(404);
  });

  it('refuses a batch whose snapshot is not a PNG or a JPEG, by its bytes', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    await put(input.id, settings);
    const response = await t.report(node.token, [
      { id: 'load-1', kind: 'load', cpuPercent: 10, bandwidthMbps: 1, sessions: 0 },
      snapshot(input.id, Buffer.from('GIF89a-----------------'), { id: 'snap-1' }),
    ]);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('Report snap-1: The snapshot image must be a PNG or a JPEG');
    // All or nothing: the load report was not taken either, so it can be sent again.
    const again = await t.report(node.token, [
      { id: 'load-1', kind: 'load', cpuPercent: 10, bandwidthMbps: 1, sessions: 0 },
    ]);
    expect(again.json()).toEqual({ accepted: 1, duplicates: 0 });
    expect(
      (await t.report(node.token, [{ ...snapshot(input.id, makePng(2, 2)), image: 'not base64!' }])).statusCode,
    ).toBe(400);
  });

  it('takes report bodies larger than the default limit (a 2 MB snapshot)', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    await put(input.id, settings);
    const big = makePng(64, 36, { bytes: 2_000_000 });
    const response = await t.report(node.token, [snapshot(input.id, big)]);
    expect(response.statusCode, response.body).toBe(200);
    expect(
      (await t.request({ method: 'GET', url: `${url(input.id)}/image`, token: t.roles.owner.token })).rawPayload.length,
    ).toBe(2_000_000);
  });

  it('goes with its stream', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    await put(input.id, settings);
    await t.report(node.token, [snapshot(input.id, makePng(4, 4))]);
    await t.request({ method: 'DELETE', url: `/api/v1/inputs/${input.id}`, token: t.roles.owner.token });
    const rows = await sql<{ images: number; settings: number }>`select
      (select count(*)::int from snapshot_images) as images, (select count(*)::int from snapshot_settings) as settings`.execute(
      t.database.db,
    );
    expect(rows.rows[0]).toEqual({ images: 0, settings: 0 });
  });
});
