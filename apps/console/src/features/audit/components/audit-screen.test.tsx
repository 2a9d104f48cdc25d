import { type Handler, jsonResponse } from '@streamcloud/api-client/testing';
import type { AuditEntry } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NOT_PERMITTED } from '@/app/guards';
import { adminAccount, userAccount, whoAmI } from '@/test/fixtures';
import { renderApp, renderAsUser } from '@/test/render-app';
import { AUDIT_TEXTS, filterOf } from './audit-screen';

function entry(id: string, changes: Partial<AuditEntry> = {}): AuditEntry {
  return {
    id,
    at: '2025-01-01T10:00:00.000Z',
    actor: { id: userAccount.id, username: 'alice' },
    actingAdmin: null,
    impersonated: false,
    action: 'input.create',
    resourceType: 'input',
    resourceId: '00000000-0000-4000-8000-00000000a001',
    sourceAddress: '203.0.113.7',
    result: 'success',
    details: {},
    ...changes,
  };
}

const IMPERSONATED = entry('3', {
  actingAdmin: { id: adminAccount.id, username: 'admin' },
  impersonated: true,
  action: 'input.delete',
});

function renderAsAdmin(handlers: Record<string, Handler>) {
  return renderApp({
    path: '/audit',
    currentToken: 'token',
    handlers: {
      'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(adminAccount)),
      'GET /api/v1/accounts': () => jsonResponse([adminAccount, userAccount]),
      ...handlers,
    },
  });
}

/** The screen's code is fetched on first show (a lazy chunk): the first find waits longer on a busy machine. */
const FIRST_SHOW = { timeout: 10_000 };

const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent?.trim());

describe('Audit screen (ADMIN)', () => {
  it('lists entries with actor, acting admin, action, resource, address and result, and pages on', async () => {
    const queries: string[] = [];
    const { user } = renderAsAdmin({
      'GET /api/v1/audit': (request) => {
        const query = new URL(request.url).searchParams;
        queries.push(query.toString());
        return query.get('cursor')
          ? jsonResponse({
              items: [entry('1', { result: 'failure', action: 'login', resourceType: null, resourceId: null })],
              nextCursor: null,
            })
          : jsonResponse({ items: [IMPERSONATED, entry('2')], nextCursor: '1735725600000000-2' });
      },
    });
    const table = await screen.findByRole('table', { name: 'Audit entries' }, FIRST_SHOW);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(cells(rows[0] as HTMLElement).slice(1)).toEqual([
      'alice',
      'admin',
      'input.delete',
      'input 00000000-0000-4000-8000-00000000a001',
      '203.0.113.7',
      'success',
    ]);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(queries[1]).toContain('cursor=1735725600000000-2');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('filters by account, resource type, action and time range', async () => {
    const queries: URLSearchParams[] = [];
    const { user } = renderAsAdmin({
      'GET /api/v1/audit': (request) => {
        queries.push(new URL(request.url).searchParams);
        return jsonResponse({ items: [entry('1')], nextCursor: null });
      },
    });
    await screen.findByRole('table', { name: 'Audit entries' }, FIRST_SHOW);
    await user.selectOptions(screen.getByLabelText('Account'), 'alice');
    await user.selectOptions(screen.getByLabelText('Resource type'), 'input');
    await user.type(screen.getByLabelText('Action'), 'input.delete');
    await user.type(screen.getByLabelText('From'), '2025-01-01T00:00');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(queries).toHaveLength(2));
    const last = queries[1] as URLSearchParams;
    expect(last.get('account')).toBe(userAccount.id);
    expect(last.get('resourceType')).toBe('input');
    expect(last.get('action')).toBe('input.delete');
    expect(last.get('from')).toBe(new Date('2025-01-01T00:00').toISOString());
    expect(last.has('to')).toBe(false);
  });

  it('refuses a time range that ends before it starts, without asking the API', async () => {
    let calls = 0;
    const { user } = renderAsAdmin({
      'GET /api/v1/audit': () => {
        calls++;
        return jsonResponse({ items: [], nextCursor: null });
      },
    });
    await screen.findByText(AUDIT_TEXTS.empty, {}, FIRST_SHOW);
    await user.type(screen.getByLabelText('From'), '2025-02-01T00:00');
    await user.type(screen.getByLabelText('To'), '2025-01-01T00:00');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await screen.findByText('From must be before To');
    expect(calls).toBe(1);
  });
});

describe('Account activity (USER)', () => {
  it("shows the account's own entries without an account filter, an admin's acts with the admin, not its address", async () => {
    const { user, location } = renderAsUser('/streams', {
      'GET /api/v1/inputs': () => jsonResponse([], 200, { 'X-Total-Count': '0' }),
      // As the API answers a USER: the admin who acted, no source address.
      'GET /api/v1/audit': () => jsonResponse({ items: [{ ...IMPERSONATED, sourceAddress: null }], nextCursor: null }),
    });
    await user.click(await screen.findByRole('button', { name: 'alice' }));
    await user.click(await screen.findByRole('button', { name: 'Account activity' }));
    await waitFor(() => expect(location()).toBe('/account/activity'));
    const table = await screen.findByRole('table', { name: 'Audit entries' }, FIRST_SHOW);
    const row = cells(within(table).getAllByRole('row')[1] as HTMLElement);
    expect(row[2]).toBe('admin');
    expect(row[3]).toBe('input.delete');
    expect(row[5]).toBe(AUDIT_TEXTS.adminAddressHidden);
    expect(screen.queryByRole('heading', { name: AUDIT_TEXTS.ownTitle })).not.toBeNull();
    expect(screen.queryByLabelText('Account')).toBeNull();
  });
});

describe('Audit page (admin-only)', () => {
  it('tells a USER that opens it that it is not permitted, and asks the API for no entries', async () => {
    let asked = false;
    renderAsUser('/audit', {
      'GET /api/v1/audit': () => {
        asked = true;
        return jsonResponse({ items: [], nextCursor: null });
      },
    });
    expect(await screen.findByText(NOT_PERMITTED)).not.toBeNull();
    expect(screen.queryByRole('table', { name: 'Audit entries' })).toBeNull();
    expect(asked).toBe(false);
  });
});

describe('filterOf', () => {
  it('leaves blank fields out and trims the action', () => {
    expect(filterOf({ account: '', resourceType: '', action: '  ', from: '', to: '' })).toEqual({});
    expect(filterOf({ account: 'a', resourceType: 'node', action: ' node.create ', from: '', to: '' })).toEqual({
      account: 'a',
      resourceType: 'node',
      action: 'node.create',
    });
  });
});
