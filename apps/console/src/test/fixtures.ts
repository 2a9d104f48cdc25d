import type { Account, WhoAmI } from '@streamcloud/contract';
import type { Handler } from './fetch-mock';
import { jsonResponse } from './fetch-mock';

const CREATED_AT = '2025-01-01T00:00:00.000Z';

export const adminAccount: Account = {
  id: '00000000-0000-4000-8000-000000000001',
  username: 'admin',
  email: 'admin@example.com',
  role: 'ADMIN',
  createdAt: CREATED_AT,
};

export const userAccount: Account = {
  id: '00000000-0000-4000-8000-000000000002',
  username: 'alice',
  email: null,
  role: 'USER',
  createdAt: CREATED_AT,
};

export function whoAmI(account: Account, impersonatedBy: Account | null = null): WhoAmI {
  return {
    ...account,
    impersonatedBy: impersonatedBy && { id: impersonatedBy.id, username: impersonatedBy.username },
  };
}

/** What the pages behind the navigation ask for, answered empty: for tests about the shell, not the page. */
export const EMPTY_PAGE_DATA: Record<string, Handler> = {
  'GET /api/v1/inputs': () => jsonResponse([], 200, { 'X-Total-Count': '0' }),
  'GET /api/v1/statistics/*': () => jsonResponse({ result: [] }),
};
