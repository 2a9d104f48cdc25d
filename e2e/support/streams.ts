import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import {
  ANTI_FORGERY_COOKIE,
  ANTI_FORGERY_HEADER,
  type GeoPoint,
  type Node,
  type NodeWithToken,
  type StreamInput,
  type StreamInputCreateDraft,
  type StreamOutput,
  type StreamStateReport,
} from '@streamcloud/contract';
import { ADMIN, apiLogin, uniqueName } from './accounts';

/** The bearer token, and the anti-forgery header once the server has set its cookie. */
export async function authHeaders(request: APIRequestContext, token: string): Promise<Record<string, string>> {
  const { cookies } = await request.storageState();
  const cookie = cookies.find((item) => item.name === ANTI_FORGERY_COOKIE);
  return { Authorization: `Bearer ${token}`, ...(cookie ? { [ANTI_FORGERY_HEADER]: cookie.value } : {}) };
}

export interface TestNode {
  id: string;
  /** The node token: what a media node sends to the node-facing API. */
  token: string;
  /** Where the node is: inputs whose streamer is here are assigned to it (distance 0). */
  geo: GeoPoint;
}

/** A random point no other node sits on, so inputs placed on it go to this node. */
function randomGeo(): GeoPoint {
  const round = (value: number) => Math.round(value * 1e6) / 1e6;
  return { latitude: round(Math.random() * 120 - 60), longitude: round(Math.random() * 340 - 170) };
}

/** Registers an enabled and opened node (as the admin); inputs created while it exists can be assigned to it. */
export async function createMediaNode(request: APIRequestContext): Promise<TestNode> {
  const adminToken = await apiLogin(request, ADMIN);
  const geo = randomGeo();
  const response = await request.post('/api/v1/nodes', {
    data: {
      name: uniqueName('media'),
      connection: { hostname: 'media.e2e.example' },
      location: { code: 'EU', description: 'E2E', geo },
      enabled: true,
      opened: true,
    },
    headers: await authHeaders(request, adminToken),
  });
  expect(response.status(), 'node creation').toBe(201);
  const node = (await response.json()) as NodeWithToken;
  return { id: node.id, token: node.token, geo };
}

/** Creates an input through the API; `at` places the streamer on a node so the input is assigned to it. */
export async function apiCreateInput(
  request: APIRequestContext,
  token: string,
  body: StreamInputCreateDraft = {},
  at?: TestNode,
): Promise<StreamInput> {
  const response = await request.post('/api/v1/inputs', {
    data: { ...body, ...(at ? { streamer: { geoLocation: at.geo, ...body.streamer } } : {}) },
    headers: await authHeaders(request, token),
  });
  expect(response.status(), `input creation: ${await response.text()}`).toBe(201);
  return (await response.json()) as StreamInput;
}

/** Many inputs quickly: `concurrency` requests in flight at a time. */
export async function apiCreateInputs(
  request: APIRequestContext,
  token: string,
  count: number,
  body: (index: number) => StreamInputCreateDraft,
  concurrency = 8,
): Promise<void> {
  const headers = await authHeaders(request, token);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const response = await request.post('/api/v1/inputs', { data: body(index), headers });
      expect(response.status(), 'input creation').toBe(201);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export async function apiCreateOutput(
  request: APIRequestContext,
  token: string,
  streamId: string,
  format: StreamOutput['format'] = 'RTMP',
): Promise<StreamOutput> {
  const response = await request.post('/api/v1/outputs', {
    data: { streamId, format },
    headers: await authHeaders(request, token),
  });
  expect(response.status(), 'output creation').toBe(201);
  return (await response.json()) as StreamOutput;
}

export async function apiGetInput(request: APIRequestContext, token: string, id: string): Promise<StreamInput> {
  const response = await request.get(`/api/v1/inputs/${id}`, { headers: await authHeaders(request, token) });
  expect(response.status(), 'input read').toBe(200);
  return (await response.json()) as StreamInput;
}

/** What a media node says about a stream it serves (its status, sessions...), through the node-facing API. */
export async function reportStreamState(
  request: APIRequestContext,
  node: TestNode,
  report: Omit<StreamStateReport, 'id' | 'kind'>,
): Promise<void> {
  const response = await request.post('/api/v1/node/reports', {
    data: { reports: [{ id: uniqueName('report'), kind: 'stream-state', ...report }] },
    headers: await authHeaders(request, node.token),
  });
  expect(response.status(), `node report: ${await response.text()}`).toBe(200);
  const result = (await response.json()) as { accepted: number };
  expect(result.accepted).toBe(1);
}

function nodeBody(node: Node, opened: boolean) {
  return {
    name: node.name,
    connection: node.connection,
    settings: node.settings,
    location: node.location,
    enabled: node.enabled,
    opened,
  };
}

/**
 * Runs `action` while no node takes new inputs (every enabled and opened node is closed for the
 * while), so inputs created meanwhile stay Pending; the nodes are opened again afterwards.
 */
export async function withNoOpenNode<T>(request: APIRequestContext, action: () => Promise<T>): Promise<T> {
  const adminToken = await apiLogin(request, ADMIN);
  const headers = await authHeaders(request, adminToken);
  const listed = await request.get('/api/v1/nodes', { headers });
  expect(listed.status()).toBe(200);
  const open = ((await listed.json()) as Node[]).filter((node) => node.enabled && node.opened);
  const setOpened = async (opened: boolean) => {
    for (const node of open) {
      const response = await request.put(`/api/v1/nodes/${node.id}`, { data: nodeBody(node, opened), headers });
      expect(response.status(), `node ${opened ? 'opening' : 'closing'}`).toBe(200);
    }
  };
  await setOpened(false);
  try {
    return await action();
  } finally {
    await setOpened(true);
  }
}

/** On a stream dashboard: creates a viewer in `format` through the viewer-creation modal; answers the Viewers card. */
export async function addViewerInConsole(page: Page, format: StreamOutput['format']): Promise<Locator> {
  const viewers = page.getByRole('region', { name: 'Viewers' });
  await viewers.getByRole('button', { name: 'Add viewer' }).click();
  const create = page.getByRole('dialog', { name: 'Create viewer' });
  await create.getByLabel('Format').selectOption(format);
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create).toBeHidden();
  return viewers;
}
