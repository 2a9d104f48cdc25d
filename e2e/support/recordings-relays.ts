import { type APIRequestContext, expect } from '@playwright/test';
import type {
  Recording,
  RecordingCreateInput,
  RecordingStateReport,
  Relay,
  RelayCreateInput,
  RelayStateReport,
  Storage,
} from '@streamcloud/contract';
import { uniqueName } from './accounts';
import { authHeaders, type TestNode } from './streams';

/**
 * A storage of the caller's account, saved without the connection check: an Amazon S3 one that no test
 * reaches, unless `settings` say otherwise (e.g. a local S3 server's endpoint and keys).
 */
export async function apiCreateStorage(
  request: APIRequestContext,
  token: string,
  name: string,
  settings: Record<string, unknown> = {},
): Promise<Storage> {
  const response = await request.post('/api/v1/storages?check=false', {
    data: {
      name,
      type: 'AmazonS3',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'e2e-secret',
      bucket: 'media',
      path: 'e2e',
      ...settings,
    },
    headers: await authHeaders(request, token),
  });
  expect(response.status(), `storage creation: ${await response.text()}`).toBe(201);
  return (await response.json()) as Storage;
}

export async function apiCreateRecording(
  request: APIRequestContext,
  token: string,
  body: RecordingCreateInput,
): Promise<Recording> {
  const response = await request.post('/api/v1/recordings', { data: body, headers: await authHeaders(request, token) });
  expect(response.status(), `recording creation: ${await response.text()}`).toBe(201);
  return (await response.json()) as Recording;
}

export async function apiStreamRecordings(
  request: APIRequestContext,
  token: string,
  streamId: string,
): Promise<Recording[]> {
  const response = await request.get(`/api/v1/recordings/stream/${streamId}`, {
    headers: await authHeaders(request, token),
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as Recording[];
}

export async function apiCreateRelay(
  request: APIRequestContext,
  token: string,
  body: RelayCreateInput,
): Promise<Relay> {
  const response = await request.post('/api/v1/relays', { data: body, headers: await authHeaders(request, token) });
  expect(response.status(), `relay creation: ${await response.text()}`).toBe(201);
  return (await response.json()) as Relay;
}

async function report(request: APIRequestContext, node: TestNode, body: object): Promise<void> {
  const response = await request.post('/api/v1/node/reports', {
    data: { reports: [{ id: uniqueName('report'), ...body }] },
    headers: await authHeaders(request, node.token),
  });
  expect(response.status(), `node report: ${await response.text()}`).toBe(200);
}

/** What the media node says about a recording, through the node-facing API. */
export function reportRecordingState(
  request: APIRequestContext,
  node: TestNode,
  fields: Omit<RecordingStateReport, 'id' | 'kind'>,
): Promise<void> {
  return report(request, node, { kind: 'recording-state', ...fields });
}

/** What the media node says about a relay, through the node-facing API. */
export function reportRelayState(
  request: APIRequestContext,
  node: TestNode,
  fields: Omit<RelayStateReport, 'id' | 'kind'>,
): Promise<void> {
  return report(request, node, { kind: 'relay-state', ...fields });
}
