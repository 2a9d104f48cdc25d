import { type APIRequestContext, expect, type Locator, type Page } from '@playwright/test';
import {
  type GeoPoint,
  type Node,
  nodeRoutes,
  type StreamInput,
  type StreamInputCreateDraft,
  type StreamOutput,
  type StreamStateReport,
  streamRoutes,
} from '@streamcloud/contract';
import { ADMIN, apiLogin, uniqueName } from './accounts';
import { api } from './api';
import { apiCreateNode } from './nodes';
import { sendReports } from './usage';

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
  const geo = randomGeo();
  const node = await apiCreateNode(request, {
    name: uniqueName('media'),
    connection: { hostname: 'media.e2e.example' },
    location: { code: 'EU', description: 'E2E', geo },
    enabled: true,
    opened: true,
  });
  keepReporting(node.token);
  return { id: node.id, token: node.token, geo };
}

/**
 * Sends the node's load heartbeat every 5 s for the rest of the worker's life, as a running node does: a node
 * silent past NODE_SILENCE_SECONDS gets no new stream, and a spec's node must keep taking them.
 */
function keepReporting(token: string): void {
  const url = `${process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080'}/api/v1/node/reports`;
  const beat = () =>
    fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        reports: [{ id: uniqueName('heartbeat'), kind: 'load', cpuPercent: 0, bandwidthMbps: 0, sessions: 0 }],
      }),
    }).catch(() => undefined);
  void beat();
  setInterval(beat, 5_000).unref();
}

/** Creates an input through the API; `at` places the streamer on a node so the input is assigned to it. */
export function apiCreateInput(
  request: APIRequestContext,
  token: string,
  body: StreamInputCreateDraft = {},
  at?: TestNode,
): Promise<StreamInput> {
  return api(request, token).call(streamRoutes.create, {
    body: { ...body, ...(at ? { streamer: { geoLocation: at.geo, ...body.streamer } } : {}) },
  });
}

/** Many inputs quickly: `concurrency` requests in flight at a time. */
export async function apiCreateInputs(
  request: APIRequestContext,
  token: string,
  count: number,
  body: (index: number) => StreamInputCreateDraft,
  concurrency = 8,
): Promise<void> {
  const client = api(request, token);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      await client.call(streamRoutes.create, { body: body(next++) });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

export function apiCreateOutput(
  request: APIRequestContext,
  token: string,
  streamId: string,
  format: StreamOutput['format'] = 'RTMP',
  extra: { access?: StreamOutput['access'] } = {},
): Promise<StreamOutput> {
  return api(request, token).call(streamRoutes.createOutput, { body: { streamId, format, ...extra } });
}

export function apiGetInput(request: APIRequestContext, token: string, id: string): Promise<StreamInput> {
  return api(request, token).call(streamRoutes.get, { params: { id } });
}

/** What a media node says about a stream it serves (its status, sessions...), through the node-facing API. */
export function reportStreamState(
  request: APIRequestContext,
  node: TestNode,
  report: Omit<StreamStateReport, 'id' | 'kind'>,
): Promise<void> {
  return sendReports(request, node, [{ kind: 'stream-state', ...report }]);
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
  const admin = api(request, await apiLogin(request, ADMIN));
  const open = (await admin.call(nodeRoutes.list)).filter((node) => node.enabled && node.opened);
  const setOpened = async (opened: boolean) => {
    for (const node of open) {
      await admin.call(nodeRoutes.update, { params: { id: node.id }, body: nodeBody(node, opened) });
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
export async function addViewerInConsole(
  page: Page,
  format: StreamOutput['format'],
  options: { hlsLatency?: 'Standard' | 'Low' } = {},
): Promise<Locator> {
  const viewers = page.getByRole('region', { name: 'Viewers' });
  await viewers.getByRole('button', { name: 'Add viewer' }).click();
  const create = page.getByRole('dialog', { name: 'Create viewer' });
  await create.getByLabel('Format').selectOption(format);
  if (options.hlsLatency) await create.getByLabel('HLS latency').selectOption(options.hlsLatency);
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create).toBeHidden();
  return viewers;
}
