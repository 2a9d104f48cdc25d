import type { Handler } from '@streamcloud/api-client/testing';
import { jsonResponse } from '@streamcloud/api-client/testing';
import type { Account, StreamInput, WebhookDelivery, WhoAmI } from '@streamcloud/contract';

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
    twoFactorEnrolmentRequired: false,
  };
}

/** What the pages behind the navigation ask for, answered empty: for tests about the shell, not the page. */
export const EMPTY_PAGE_DATA: Record<string, Handler> = {
  'GET /api/v1/inputs': () => jsonResponse([], 200, { 'X-Total-Count': '0' }),
  'GET /api/v1/statistics/*': () => jsonResponse({ result: [] }),
};

/** A user's RTMP stream in Ingestion, as GET /inputs/{id} answers it; `changes` override any field. */
export function streamInput(id: string, changes: Partial<StreamInput> = {}): StreamInput {
  return {
    id,
    ownerId: userAccount.id,
    caption: 'Main stage',
    format: 'RTMP',
    status: 'Ingestion',
    access: 'Public',
    accessToken: null,
    accessTokenRotatedAt: null,
    outputMode: 'AdjustableTranscode',
    name: `in+${id}`,
    callbackUri: null,
    streamer: { ipAddress: null, geoLocation: null },
    gslb: false,
    parameters: {},
    statusMessages: [],
    connection: { uri: `rtmp://edge.example.com:1935/live/in+${id}` },
    nodeId: null,
    servingNode: null,
    source: null,
    output: { version: 2, passthrough: false, tracks: [] },
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    ...changes,
  };
}

/** A delivered webhook of a user's stream, as GET /webhooks/deliveries answers it; `changes` override any field. */
export function webhookDelivery(changes: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: '00000000-0000-4000-8000-0000000d0001',
    accountId: userAccount.id,
    type: 'stream.ingestion',
    resourceType: 'stream',
    resourceId: '00000000-0000-4000-8000-000000000051',
    streamId: '00000000-0000-4000-8000-000000000051',
    url: 'https://hooks.example.com/streamcloud',
    occurredAt: '2025-01-01T10:00:00.000Z',
    status: 'Delivered',
    attempts: 1,
    lastAttemptAt: '2025-01-01T10:00:00.100Z',
    lastStatusCode: 200,
    lastError: null,
    nextAttemptAt: null,
    deliveredAt: '2025-01-01T10:00:00.200Z',
    ...changes,
  };
}

/** GET /webhooks/deliveries answering `deliveries` as one page. */
export const deliveriesResponse =
  (...deliveries: WebhookDelivery[]) =>
  () =>
    jsonResponse(deliveries, 200, { 'X-Total-Count': String(deliveries.length) });
