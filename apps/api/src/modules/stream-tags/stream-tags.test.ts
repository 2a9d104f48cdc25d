import { STREAM_TAG_MESSAGES, STREAM_TAG_RULE, STREAM_TAGS_MAX } from '@streamcloud/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { raceForOne } from '../../../test/concurrency.js';
import { expectValidationError, ownerOnly, roleMatrixTests, signedIn, useTestApp } from '../../../test/helpers.js';

const t = useTestApp({}, { roles: true });
const tagsOf = (streamId: string) => `/api/v1/inputs/${streamId}/tags`;
const add = (streamId: string, tag: unknown, token = t.roles.owner.token) =>
  t.request({ method: 'POST', url: tagsOf(streamId), token, payload: { tag } });
const list = (streamId: string, token = t.roles.owner.token) =>
  t.request({ method: 'GET', url: tagsOf(streamId), token });
const tagged = (tag: string, token = t.roles.owner.token, query = '') =>
  t.request({ method: 'GET', url: `/api/v1/tags/${tag}/inputs${query}`, token });

describe('role matrix', () => {
  roleMatrixTests<{ input: string }>(
    [
      {
        name: 'GET /inputs/{id}/tags',
        call: ({ input }) => ['GET', tagsOf(input)],
        expected: ownerOnly(200),
      },
      {
        name: 'POST /inputs/{id}/tags',
        call: ({ input }) => ['POST', tagsOf(input), { tag: 'sports' }],
        expected: ownerOnly(201),
      },
      {
        name: 'DELETE /inputs/{id}/tags/{tag}',
        prepare: async ({ input }) => {
          expect((await add(input, 'studio-a')).statusCode).toBe(201);
        },
        call: ({ input }) => ['DELETE', `${tagsOf(input)}/studio-a`],
        expected: ownerOnly(204),
      },
      {
        name: 'GET /tags/{tag}/inputs',
        call: () => ['GET', '/api/v1/tags/sports/inputs'],
        expected: signedIn(200),
      },
    ],
    {
      roles: () => t.roles,
      subject: async () => ({ input: (await t.createInput()).id }),
    },
  );
});

describe('tags on a stream', () => {
  it('adds, lists by name, removes, and audits each change on the stream', async () => {
    const input = await t.createInput();
    const first = await add(input.id, 'studio-a');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toEqual({ streamId: input.id, tags: ['studio-a'] });
    expect((await add(input.id, 'sports')).json().tags).toEqual(['sports', 'studio-a']);
    expect((await list(input.id)).json()).toEqual({ streamId: input.id, tags: ['sports', 'studio-a'] });

    const removed = await t.request({
      method: 'DELETE',
      url: `${tagsOf(input.id)}/sports`,
      token: t.roles.owner.token,
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await list(input.id)).json().tags).toEqual(['studio-a']);
    const again = await t.request({ method: 'DELETE', url: `${tagsOf(input.id)}/sports`, token: t.roles.owner.token });
    expect(again.statusCode).toBe(404);

    const audit = await sql<{ action: string; target_id: string; details: unknown }>`
      select action, target_id, details from audit_log where action like 'input.%tag' order by id`.execute(
      t.database.db,
    );
    expect(audit.rows.map((row) => [row.action, row.target_id])).toEqual([
      ['input.tag', input.id],
      ['input.tag', input.id],
      ['input.untag', input.id],
    ]);
  });

  it('refuses a tag the stream has (409) and one past the limit (409)', async () => {
    const input = await t.createInput();
    expect((await add(input.id, 'live')).statusCode).toBe(201);
    const duplicate = await add(input.id, 'live');
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe(STREAM_TAG_MESSAGES.duplicate);
    for (let index = 1; index < STREAM_TAGS_MAX; index++) {
      expect((await add(input.id, `tag-${index}`)).statusCode).toBe(201);
    }
    const past = await add(input.id, 'one-too-many');
    expect(past.statusCode).toBe(409);
    expect(past.json().message).toBe(STREAM_TAG_MESSAGES.limit);
    expect((await list(input.id)).json().tags).toHaveLength(STREAM_TAGS_MAX);
  });

  it.each([
    ['empty', ''],
    ['too long', 'a'.repeat(33)],
    ['upper case', 'Studio-A'],
    ['a space', 'studio a'],
    ['an underscore', 'studio_a'],
    ['not a string', 7],
  ])('refuses a tag that is %s with 400 naming body.tag and the rule', async (_what, tag) => {
    const input = await t.createInput();
    expectValidationError(await add(input.id, tag), 'body.tag', STREAM_TAG_RULE);
    expect((await list(input.id)).json().tags).toEqual([]);
  });

  it('takes 32 characters, and refuses unknown fields and a bad tag in the path', async () => {
    const input = await t.createInput();
    expect((await add(input.id, 'a'.repeat(32))).statusCode).toBe(201);
    const extra = await t.request({
      method: 'POST',
      url: tagsOf(input.id),
      token: t.roles.owner.token,
      payload: { tag: 'x', color: 'red' },
    });
    expect(extra.statusCode).toBe(400);
    const badPath = await t.request({ method: 'DELETE', url: `${tagsOf(input.id)}/Bad`, token: t.roles.owner.token });
    expectValidationError(badPath, 'params.tag', STREAM_TAG_RULE);
  });

  it('has one winner among concurrent adds of the same tag', async () => {
    const input = await t.createInput();
    await raceForOne(6, () => add(input.id, 'sports'), { winner: 201, losers: [409] });
    expect((await list(input.id)).json().tags).toEqual(['sports']);
  });

  it('never passes the limit with concurrent adds of different tags', async () => {
    const input = await t.createInput();
    for (let index = 0; index < STREAM_TAGS_MAX - 2; index++) await add(input.id, `tag-${index}`);
    const responses = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((tag) => add(input.id, `new-${tag}`)));
    expect(responses.filter((response) => response.statusCode === 201)).toHaveLength(2);
    expect(responses.filter((response) => response.statusCode === 409)).toHaveLength(3);
    expect((await list(input.id)).json().tags).toHaveLength(STREAM_TAGS_MAX);
  });

  it("goes with its stream: a deleted stream's tags are gone", async () => {
    const input = await t.createInput();
    await add(input.id, 'sports');
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api/v1/inputs/${input.id}`,
      token: t.roles.owner.token,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const rows = await sql`select * from stream_tags`.execute(t.database.db);
    expect(rows.rows).toEqual([]);
    expect((await list(input.id)).statusCode).toBe(404);
  });
});

describe('the streams with a tag', () => {
  it("answers the caller's own streams with the tag, in the order they were tagged; an ADMIN's every account's", async () => {
    const first = await t.createInput();
    const second = await t.createInput();
    const untagged = await t.createInput();
    const others = await t.createInput({}, t.roles.other.token);
    await add(second.id, 'sports');
    await add(first.id, 'sports');
    await add(untagged.id, 'news');
    await add(others.id, 'sports', t.roles.other.token);

    const mine = await tagged('sports');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().map((stream: { id: string }) => stream.id)).toEqual([second.id, first.id]);
    expect(mine.json()[0]).toEqual({
      id: second.id,
      ownerId: t.roles.owner.id,
      name: expect.any(String),
      caption: null,
      format: expect.any(String),
    });
    expect((await tagged('sports', t.roles.other.token)).json().map((stream: { id: string }) => stream.id)).toEqual([
      others.id,
    ]);
    expect((await tagged('sports', t.roles.admin.token)).json()).toHaveLength(3);
    const narrowed = await tagged('sports', t.roles.admin.token, `?account=${t.roles.other.id}`);
    expect(narrowed.json().map((stream: { id: string }) => stream.id)).toEqual([others.id]);
    expect((await tagged('sports', t.roles.owner.token, '?limit=1&offset=1')).json()).toHaveLength(1);
    // A USER naming another account is 404, as for every list.
    expect((await tagged('sports', t.roles.owner.token, `?account=${t.roles.other.id}`)).statusCode).toBe(404);
    expectValidationError(await tagged('Sports'), 'params.tag', STREAM_TAG_RULE);
  });
});
