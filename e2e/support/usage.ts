import { type APIRequestContext, expect } from '@playwright/test';
import type { NodeWithToken } from '@streamcloud/contract';
import { ADMIN, apiLogin, uniqueName } from './accounts';
import { authHeaders } from './streams';

export interface UsageNode {
  id: string;
  name: string;
  token: string;
}

/** An enabled and opened node (as the admin) whose reports a test sends itself. */
export async function createUsageNode(request: APIRequestContext, prefix: string, code = 'EU'): Promise<UsageNode> {
  const adminToken = await apiLogin(request, ADMIN);
  const name = uniqueName(prefix);
  const response = await request.post('/api/v1/nodes', {
    data: { name, connection: { hostname: 'usage.e2e.example' }, location: { code }, enabled: true, opened: true },
    headers: await authHeaders(request, adminToken),
  });
  expect(response.status(), 'node creation').toBe(201);
  const node = (await response.json()) as NodeWithToken;
  return { id: node.id, name, token: node.token };
}

/** Sends a batch of reports through the node-facing API, as a media node would; every report must be new. */
export async function sendReports(request: APIRequestContext, node: UsageNode, reports: object[]): Promise<void> {
  const response = await request.post('/api/v1/node/reports', {
    data: { reports },
    headers: await authHeaders(request, node.token),
  });
  expect(response.status(), `node reports: ${await response.text()}`).toBe(200);
  expect(await response.json()).toEqual({ accepted: reports.length, duplicates: 0 });
}

const pad = (value: number) => String(value).padStart(2, '0');

/** yyyy-mm-dd (UTC) of an instant: what the date pickers take. */
export const dateInput = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** DD/MM/YYYY (UTC). */
export const printedDate = (ms: number) => {
  const date = new Date(ms);
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${date.getUTCFullYear()}`;
};
/** DD/MM/YY HH:mm:ss (UTC), as in the account CSV. */
export const csvDate = (ms: number) => {
  const date = new Date(ms);
  return `${pad(date.getUTCDate())}/${pad(date.getUTCMonth() + 1)}/${pad(date.getUTCFullYear() % 100)} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
};
