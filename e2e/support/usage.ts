import { type APIRequestContext, expect } from '@playwright/test';
import { type NodeReport, nodeReportRoutes } from '@streamcloud/contract';
import { uniqueName } from './accounts';
import { api } from './api';
import { apiCreateNode } from './nodes';

export interface UsageNode {
  id: string;
  name: string;
  token: string;
}

/** An enabled and opened node (as the admin) whose reports a test sends itself. */
export async function createUsageNode(request: APIRequestContext, prefix: string, code = 'EU'): Promise<UsageNode> {
  const name = uniqueName(prefix);
  const node = await apiCreateNode(request, {
    name,
    connection: { hostname: 'usage.e2e.example' },
    location: { code },
    enabled: true,
    opened: true,
  });
  return { id: node.id, name, token: node.token };
}

/** A report as a test writes it: the id may be left out (a fresh one is given). */
export type TestReport = NodeReport extends infer R
  ? R extends NodeReport
    ? Omit<R, 'id'> & { id?: string }
    : never
  : never;

/**
 * Sends a batch of reports through the node-facing API with the node's token, as a media node would;
 * every report must be new.
 */
export async function sendReports(
  request: APIRequestContext,
  node: { token: string },
  reports: TestReport[],
): Promise<void> {
  const result = await api(request, node.token).call(nodeReportRoutes.report, {
    body: { reports: reports.map((report) => ({ id: uniqueName('report'), ...report }) as NodeReport) },
  });
  expect(result).toEqual({ accepted: reports.length, duplicates: 0 });
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
