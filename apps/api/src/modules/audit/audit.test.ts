import { randomUUID } from 'node:crypto';
import { AUDIT_CSV_HEADER, AUDIT_MESSAGES, AuditPage, csvRecord } from '@streamcloud/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  expectValidationError,
  ownerOnly,
  roleMatrixTests,
  signedIn,
  TEST_PASSWORD,
  useTestApp,
} from '../../../test/helpers.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { AuditEntry as AuditRecord } from './audit.repository.js';
import { toEntry } from './audit.service.js';

const t = useTestApp({}, { roles: true });

const list = (token: string | undefined, query = '') =>
  t.request({ method: 'GET', url: `/api/v1/audit${query}`, token });

const actions = (response: { json(): { items: { action: string }[] } }) =>
  response.json().items.map((entry) => entry.action);

describe('role matrix', () => {
  roleMatrixTests(
    [
      { name: 'GET /audit', call: () => ['GET', '/api/v1/audit'], expected: signedIn(200) },
      {
        name: "GET /audit?account= (the owner's)",
        call: () => ['GET', `/api/v1/audit?account=${t.roles.owner.id}`],
        expected: ownerOnly(200),
      },
      { name: 'GET /audit/export', call: () => ['GET', '/api/v1/audit/export'], expected: signedIn(200) },
      {
        name: "GET /audit/export?account= (the owner's)",
        call: () => ['GET', `/api/v1/audit/export?account=${t.roles.owner.id}`],
        expected: ownerOnly(200),
      },
    ],
    { roles: () => t.roles },
  );
});

describe('GET /audit', () => {
  it('lists writes newest first with actor, acting admin, resource, source address and result', async () => {
    const impersonating = t.roles.tokens['ADMIN impersonating owner'];
    const input = await t.request({
      method: 'POST',
      url: '/api/v1/inputs',
      token: impersonating,
      payload: {},
      remoteAddress: '203.0.113.7',
    });
    expect(input.statusCode, input.body).toBe(201);
    const response = await list(t.roles.admin.token, '?resourceType=input');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      items: [
        {
          id: expect.stringMatching(/^\d+$/),
          at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          actor: { id: t.roles.owner.id, username: 'alice' },
          actingAdmin: { id: t.roles.admin.id, username: 'root' },
          impersonated: true,
          action: 'input.create',
          resourceType: 'input',
          resourceId: input.json().id,
          sourceAddress: '203.0.113.7',
          result: 'success',
          details: expect.objectContaining({ format: expect.any(String) }),
        },
      ],
      nextCursor: null,
    });
  });

  it("shows a USER its own account's entries only, and which admin acted as it, but not the admin's address", async () => {
    const impersonated = await t.request({
      method: 'POST',
      url: '/api/v1/inputs',
      token: t.roles.tokens['ADMIN impersonating owner'],
      payload: { caption: 'by-admin' },
      remoteAddress: '203.0.113.7',
    });
    const own = await t.request({
      method: 'POST',
      url: '/api/v1/inputs',
      token: t.roles.owner.token,
      payload: { caption: 'by-owner' },
      remoteAddress: '198.51.100.23',
    });
    await t.createInput({}, t.roles.other.token);
    const answer = await list(t.roles.owner.token, '?action=input.create');
    expect(answer.statusCode, answer.body).toBe(200);
    const items = answer.json().items as Array<Record<string, unknown> & { actor: { id: string } }>;
    for (const entry of items) expect(entry.actor.id).toBe(t.roles.owner.id);
    expect(items).toEqual([
      expect.objectContaining({
        resourceId: own.json().id,
        actingAdmin: null,
        impersonated: false,
        sourceAddress: '198.51.100.23',
      }),
      // Who (the admin), when and what; not the admin's own network address.
      expect.objectContaining({
        resourceId: impersonated.json().id,
        at: expect.stringMatching(/^\d{4}-/),
        action: 'input.create',
        actingAdmin: { id: t.roles.admin.id, username: 'root' },
        impersonated: true,
        sourceAddress: null,
      }),
    ]);
    const exported = await t.request({ method: 'GET', url: '/api/v1/audit/export', token: t.roles.owner.token });
    expect(exported.body).not.toContain('203.0.113.7');
    expect(exported.body).toContain(`,alice,root,input.create,input,${impersonated.json().id},,success`);
    expect(exported.body).toContain('198.51.100.23');
    // An ADMIN sees where the impersonating admin's request came from.
    const asAdmin = await list(t.roles.admin.token, `?account=${t.roles.owner.id}&action=input.create`);
    expect(asAdmin.json().items[1]).toMatchObject({ impersonated: true, sourceAddress: '203.0.113.7' });
    expect(
      (await t.request({ method: 'GET', url: '/api/v1/audit/export', token: t.roles.admin.token })).body,
    ).toContain('203.0.113.7');
    const other = await list(t.roles.owner.token, `?account=${t.roles.other.id}`);
    expect(other.statusCode, other.body).toBe(404);
  });

  it('records sign-ins and failed sign-ins, with the address', async () => {
    const attempt = (username: string, password: string) =>
      t.request({
        method: 'POST',
        url: '/api/v1/login',
        payload: { username, password },
        remoteAddress: '198.51.100.4',
      });
    expect((await attempt('alice', 'wrong-password')).statusCode).toBe(401);
    expect((await attempt('nobody', 'wrong-password')).statusCode).toBe(401);
    expect((await attempt('alice', TEST_PASSWORD)).statusCode).toBe(200);
    const response = await list(t.roles.admin.token, '?action=login&limit=3');
    expect(
      response
        .json()
        .items.map((entry: Record<string, unknown>) => [
          (entry.actor as { username: string } | null)?.username ?? null,
          entry.result,
          entry.sourceAddress,
          entry.details,
        ]),
    ).toEqual([
      ['alice', 'success', '198.51.100.4', {}],
      [null, 'failure', '198.51.100.4', { reason: 'invalid credentials', username: 'nobody' }],
      ['alice', 'failure', '198.51.100.4', { reason: 'invalid credentials' }],
    ]);
    const own = await list(t.roles.owner.token, '?action=login');
    expect(own.json().items.map((entry: { result: string }) => entry.result)).toContain('failure');
  });

  it('filters by account, resource type, action and time range', async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const input = await t.createInput();
    await t.request({ method: 'DELETE', url: `/api/v1/inputs/${input.id}`, token: t.roles.owner.token });
    await t.createInput({}, t.roles.other.token);
    const byAccount = await list(t.roles.admin.token, `?account=${t.roles.other.id}&resourceType=input`);
    expect(actions(byAccount)).toEqual(['input.create']);
    const byAction = await list(t.roles.admin.token, `?action=input.delete`);
    expect(byAction.json().items.map((entry: { resourceId: string }) => entry.resourceId)).toEqual([input.id]);
    const inRange = await list(t.roles.admin.token, `?resourceType=input&from=${encodeURIComponent(before)}`);
    expect(actions(inRange)).toEqual(['input.create', 'input.delete', 'input.create']);
    const beforeRange = await list(t.roles.admin.token, `?resourceType=input&to=${encodeURIComponent(before)}`);
    expect(actions(beforeRange)).toEqual([]);
  });

  it('pages with a cursor, entries written in the same instant included once each', async () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    for (let i = 0; i < 7; i++) {
      await t.app.moduleContext.uow.audit.record(
        { actorId: t.roles.owner.id, actingAdminId: null, action: 'input.update', targetId: `s${i}` },
        at,
      );
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await list(
        t.roles.owner.token,
        `?action=input.update&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json();
      seen.push(...page.items.map((entry: { resourceId: string }) => entry.resourceId));
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(['s6', 's5', 's4', 's3', 's2', 's1', 's0']);
  });

  it('writes each entry (from the database) as the export maps its row, for ADMIN and USER callers', async () => {
    const { audit } = t.app.moduleContext.uow;
    const at = new Date('2026-03-04T05:06:07.891Z');
    const entries: AuditRecord[] = [
      { actorId: t.roles.owner.id, actingAdminId: null, action: 'input.update', targetType: 'input', targetId: 'x' },
      {
        actorId: t.roles.owner.id,
        actingAdminId: t.roles.admin.id,
        action: 'relay.create',
        details: { text: 'Quote " back\\slash\ttab\nline\u0001 é 😀 \u2028', nested: { list: [1, 2.5, null, true] } },
      },
      // The system's own work, a sign-in of no account, an account deleted since (its id is kept).
      { actorId: null, actingAdminId: null, action: 'node.update', targetType: 'node', targetId: 'n' },
      { actorId: null, actingAdminId: null, action: 'login', result: 'failure', details: { username: 'nobody' } },
      { actorId: randomUUID(), actingAdminId: null, action: 'account.delete', details: {} },
    ];
    for (const [index, entry] of entries.entries()) {
      await audit.record(entry, new Date(at.getTime() + index * 1001));
    }
    // Microseconds a JavaScript Date cannot hold: written truncated to the millisecond, as the Date holds them.
    await sql`update audit_log set at = at + interval '789 microseconds' where action = 'relay.create'`.execute(
      t.database.db,
    );
    for (const caller of [t.roles.admin, t.roles.owner]) {
      const to = new Date(at.getTime() + 10_000);
      const response = await list(caller.token, `?from=${at.toISOString()}&to=${to.toISOString()}&limit=4`);
      expect(response.statusCode, response.body).toBe(200);
      const auth = { ...caller, role: caller === t.roles.admin ? 'ADMIN' : 'USER' } as unknown as AuthContext;
      const filter = { actorId: caller === t.roles.admin ? null : caller.id, from: at, to };
      const rows = await audit.page(filter, null, 5);
      const last = rows[3];
      expect(response.json()).toEqual({
        items: rows.slice(0, 4).map((row) => toEntry(row, auth)),
        nextCursor: rows.length > 4 && last ? `${last.at_micros}-${last.id}` : null,
      });
      expect(response.json().items).toHaveLength(caller === t.roles.admin ? 4 : 2);
      expect(response.json().nextCursor === null).toBe(caller !== t.roles.admin);
      expect(AuditPage.parse(response.json())).toEqual(response.json());
    }
  });

  it('answers 400 naming the field for bad filters', async () => {
    const token = t.roles.admin.token;
    expectValidationError(
      await list(token, '?resourceType=Bad%20Type'),
      'querystring.resourceType',
      AUDIT_MESSAGES.resourceType,
    );
    expectValidationError(await list(token, '?action=DROP'), 'querystring.action', AUDIT_MESSAGES.action);
    expectValidationError(await list(token, '?cursor=abc'), 'querystring.cursor', AUDIT_MESSAGES.cursor);
    expectValidationError(await list(token, '?account=someone'), 'querystring.account');
    expectValidationError(await list(token, '?limit=0'), 'querystring.limit');
    expectValidationError(await list(token, '?limit=201'), 'querystring.limit');
    expectValidationError(await list(token, '?from=yesterday'), 'querystring.from');
    expectValidationError(
      await list(token, '?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z'),
      'querystring.to',
      AUDIT_MESSAGES.range,
    );
    expectValidationError(await list(token, '?extra=1'), 'querystring');
    const exported = await t.request({ method: 'GET', url: '/api/v1/audit/export?action=X', token });
    expectValidationError(exported, 'querystring.action', AUDIT_MESSAGES.action);
  });
});

describe('GET /audit/export', () => {
  it('streams the filtered entries as CSV, newest first, formulas neutralised', async () => {
    const sneaky = await t.createAccount('USER', '=HYPERLINK("http://x")');
    await t.createInput({}, sneaky.token);
    await t.createInput();
    const response = await t.request({
      method: 'GET',
      url: '/api/v1/audit/export?resourceType=input',
      token: t.roles.admin.token,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="audit.csv"');
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(csvRecord(AUDIT_CSV_HEADER));
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT[^,]*,alice,,input\.create,input,[0-9a-f-]{36},127\.0\.0\.1,success,/);
    expect(lines[2]).toContain(`,"'=HYPERLINK(""http://x"")",,input.create,`);
  });

  it("gives a USER its own account's entries only", async () => {
    await t.createInput();
    await t.createInput({}, t.roles.other.token);
    const response = await t.request({ method: 'GET', url: '/api/v1/audit/export', token: t.roles.other.token });
    const rows = response.body.trimEnd().split('\r\n').slice(1);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.split(',')[1]).toBe('bob');
  });
});
