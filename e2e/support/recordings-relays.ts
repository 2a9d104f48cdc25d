import type { APIRequestContext } from '@playwright/test';
import {
  type Recording,
  type RecordingCreateInput,
  type RecordingStateReport,
  type Relay,
  type RelayCreateInput,
  type RelayStateReport,
  recordingRoutes,
  relayRoutes,
  type Storage,
  type StorageCreateInput,
  storageRoutes,
} from '@streamcloud/contract';
import { api } from './api';
import type { TestNode } from './streams';
import { sendReports } from './usage';

/**
 * A storage of the caller's account, saved without the connection check: an Amazon S3 one that no test
 * reaches, unless `settings` say otherwise (e.g. a local S3 server's endpoint and keys).
 */
export function apiCreateStorage(
  request: APIRequestContext,
  token: string,
  name: string,
  settings: Partial<StorageCreateInput> = {},
): Promise<Storage> {
  return api(request, token).call(storageRoutes.create, {
    query: { check: 'false' },
    body: {
      name,
      type: 'AmazonS3',
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'e2e-secret',
      bucket: 'media',
      path: 'e2e',
      ...settings,
    },
  });
}

export function apiCreateRecording(
  request: APIRequestContext,
  token: string,
  body: RecordingCreateInput,
): Promise<Recording> {
  return api(request, token).call(recordingRoutes.create, { body });
}

export function apiStreamRecordings(request: APIRequestContext, token: string, streamId: string): Promise<Recording[]> {
  return api(request, token).call(recordingRoutes.listByStream, { params: { streamId } });
}

export function apiCreateRelay(request: APIRequestContext, token: string, body: RelayCreateInput): Promise<Relay> {
  return api(request, token).call(relayRoutes.create, { body });
}

/** What the media node says about a recording, through the node-facing API. */
export function reportRecordingState(
  request: APIRequestContext,
  node: TestNode,
  fields: Omit<RecordingStateReport, 'id' | 'kind'>,
): Promise<void> {
  return sendReports(request, node, [{ kind: 'recording-state', ...fields }]);
}

/** What the media node says about a relay, through the node-facing API. */
export function reportRelayState(
  request: APIRequestContext,
  node: TestNode,
  fields: Omit<RelayStateReport, 'id' | 'kind'>,
): Promise<void> {
  return sendReports(request, node, [{ kind: 'relay-state', ...fields }]);
}
