import { TEXT_MESSAGES } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { databaseState } from './database-state.js';
import { expectValidationError, type TestApp, useTestApp } from './helpers.js';

// Every string of every route is checked by the contract's defineRoute (packages/contract/src/text.ts);
// these are the reproductions of issue 13, item 5. The fuzzing suite tries every route.

const t = useTestApp({}, { roles: true });

/** Answers the response and asserts the database did not change. */
const refusedUnchanged = async (send: () => ReturnType<TestApp['request']>) => {
  const before = await databaseState(t.database.db);
  const response = await send();
  expect(await databaseState(t.database.db)).toEqual(before);
  return response;
};

describe('NUL characters and unpaired surrogates', () => {
  it('are a 400 naming the field on the unauthenticated login', async () => {
    for (const [username, message] of [
      ['a\u0000b', TEXT_MESSAGES.nul],
      ['a\ud800b', TEXT_MESSAGES.surrogate],
    ] as const) {
      const response = await refusedUnchanged(() =>
        t.request({ method: 'POST', url: '/api/v1/login', payload: { username, password: 'whatever1' } }),
      );
      expectValidationError(response, 'body.username', message);
    }
    const response = await t.request({
      method: 'POST',
      url: '/api/v1/login',
      payload: { username: t.roles.owner.username, password: 'x\u0000' },
    });
    expectValidationError(response, 'body.password', TEXT_MESSAGES.nul);
  });

  it('are a 400 on fallbacks (a USER route), with nothing written', async () => {
    const input = await t.createInput();
    const response = await refusedUnchanged(() =>
      t.request({
        method: 'POST',
        url: '/api/v1/fallbacks',
        token: t.roles.owner.token,
        payload: {
          streamId: input.id,
          type: 'Input',
          label: 'backup \ud800',
          settings: { resources: [{ type: 'URL', data: 'srt://backup.example.com:9000' }] },
        },
      }),
    );
    expectValidationError(response, 'body.label', TEXT_MESSAGES.surrogate);
  });

  it('are a 400 on node groups, and no group is created', async () => {
    for (const name of ['edge \ud800', 'edge \udc00 x', 'edge\u0000']) {
      const response = await refusedUnchanged(() =>
        t.request({
          method: 'POST',
          url: '/api/v1/node-groups',
          token: t.roles.admin.token,
          payload: { name, assignment: 'Ingestion' },
        }),
      );
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().errors).toContainEqual(expect.objectContaining({ path: 'body.name' }));
    }
  });

  it('refuse a whole node report batch with 400, naming the report and field', async () => {
    const node = await t.createNode(t.roles.admin);
    const streamId = (await t.createInput()).id;
    const response = await refusedUnchanged(() =>
      t.report(node.token, [
        { id: 'r1', kind: 'load', cpuPercent: 10, bandwidthMbps: 1, sessions: 0 },
        { id: 'r2', kind: 'stream-state', streamId, message: { level: 'info', text: 'bad \u0000 text' } },
      ]),
    );
    expectValidationError(response, 'body.reports.1.message.text', TEXT_MESSAGES.nul);
  });

  it('are a 400 in the query and the path too', async () => {
    const query = await t.request({
      method: 'GET',
      url: `/api/v1/storages?ownerId=${encodeURIComponent('\u0000')}`,
      token: t.roles.admin.token,
    });
    expect(query.statusCode, query.body).toBe(400);
    const path = await t.request({ method: 'GET', url: '/api/v1/inputs/%00', token: t.roles.owner.token });
    expect(path.statusCode, path.body).toBe(400);
  });
});
