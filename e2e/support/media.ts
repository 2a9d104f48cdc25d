import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from '@playwright/test';
import { type AccessMode, nodeRoutes, type PushFormat, type StreamInput, streamRoutes } from '@streamcloud/contract';
// The media node's own test harness starts a real node process (nginx-rtmp, ffmpeg, werift) on loopback.
import { freePort, type RunningNode, runMediaNode } from '../../apps/media-node/test/harness';
import { ADMIN, apiLogin, createAccount, type TestAccount, uniqueName } from './accounts';
import { api } from './api';
import { apiCreateNode } from './nodes';
import { apiCreateInput } from './streams';

export { freePort, pushTestPattern, rtmpReceiver, runTool } from '../../apps/media-node/test/harness';

/** An address the location lookup places; a node registered on that very spot takes the streams pushed from it. */
export const STREAMER_IP = '81.2.69.160';

/**
 * Creates a stream in the console's modal with its streamer at STREAMER_IP (so the local media node takes
 * it), then opens its dashboard from the Connection dialog. Answers the endpoint the dialog showed, the
 * stream's id and, for private access, the access token it showed.
 */
export async function createStreamInConsole(
  page: Page,
  stream: { caption: string; format: PushFormat; callbackUri?: string; access?: AccessMode },
): Promise<{ endpoint: string; streamId: string; accessToken: string | null }> {
  await page.goto('/#/streams');
  await page.getByRole('button', { name: 'Create stream' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create stream' });
  await dialog.getByLabel('Caption').fill(stream.caption);
  if (stream.format === 'WebRTC') await expect(dialog.getByLabel('Format')).toHaveValue('WebRTC');
  else await dialog.getByLabel('Format').selectOption(stream.format);
  if (stream.access) await dialog.getByLabel('Access').selectOption(stream.access);
  await dialog.getByLabel('Streamer IP').fill(STREAMER_IP);
  if (stream.callbackUri) await dialog.getByLabel('Callback URI').fill(stream.callbackUri);
  await expect(dialog.getByTestId('streamer-location')).not.toHaveText(/Looking up/);
  await dialog.getByRole('button', { name: 'Create' }).click();
  const connection = page.getByRole('dialog', { name: 'Connection' });
  // The endpoint, then (private access) the access token.
  const shown = connection.locator('code');
  await expect(shown.first()).toHaveText(/\S/);
  const endpoint = (await shown.first().textContent()) ?? '';
  const accessToken = (await shown.count()) > 1 ? await shown.nth(1).textContent() : null;
  await connection.getByRole('link', { name: 'View Stream' }).click();
  await expect(page).toHaveURL(/#\/streams\/view\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('stream-status')).toHaveText('Idle');
  return { endpoint, streamId: /view\/([0-9a-f-]{36})$/.exec(page.url())?.[1] ?? '', accessToken };
}

export interface LocalMediaNode extends RunningNode {
  /** Stops the process and deletes the node, so later specs never get streams assigned to it. */
  remove(): Promise<void>;
}

/** What a spec file may ask of its local media node. */
export interface LocalMediaNodeOptions {
  /**
   * How long a stream stays live after its push drops (RECONNECT_GRACE_MS): 1 s by default, so an ended push is
   * Idle (and its VOD listed) at once. A spec whose encoder reconnects within the grace asks for more: restarting
   * ffmpeg takes over a second on a loaded machine.
   */
  reconnectGraceMs?: number;
}

/** Registers a node on 127.0.0.1 where STREAMER_IP is located, and runs a real media node process for it. */
async function startLocalMediaNode(
  request: APIRequestContext,
  controlPlaneUrl: string,
  { reconnectGraceMs = 1000 }: LocalMediaNodeOptions = {},
): Promise<LocalMediaNode> {
  const admin = api(request, await apiLogin(request, ADMIN));
  const { geo } = await admin.call(streamRoutes.location, { query: { ipAddress: STREAMER_IP } });
  const ports = async () => ({ port: await freePort(), rtmpPort: await freePort(), srtPort: await freePort() });
  let chosen = await ports();
  const name = uniqueName('live');
  const connection = () => ({ protocol: 'HTTP' as const, hostname: '127.0.0.1', port: chosen.port });
  const location = { code: 'EU', description: 'Loopback', geo };
  const node = await apiCreateNode(request, { name, connection: connection(), location, enabled: true, opened: true });
  let running: RunningNode | undefined;
  // A free port may be taken by another process before the node binds it: then the node gets new ones. A node
  // that never starts is deleted, or the next specs' streams would be placed on it.
  for (let attempt = 1; !running; attempt++) {
    try {
      running = await runMediaNode(
        controlPlaneUrl,
        { id: node.id, name, token: node.token, ...chosen },
        { RECONNECT_GRACE_MS: String(reconnectGraceMs), REPORT_INTERVAL_MS: '1000' },
      );
    } catch (error) {
      if (attempt === 3 || !String(error).includes('EADDRINUSE')) {
        await admin.call(nodeRoutes.delete, { params: { id: node.id } });
        throw error;
      }
      chosen = await ports();
      await admin.call(nodeRoutes.update, {
        params: { id: node.id },
        body: { name, connection: connection(), location, enabled: true, opened: true },
      });
    }
  }
  return {
    ...running,
    async remove() {
      await running.stop();
      await admin.call(nodeRoutes.delete, { params: { id: node.id } });
    },
  };
}

/**
 * One local media node for a spec file: started before its first test, removed after its last. Answers
 * a getter for the running node.
 */
export function useLocalMediaNode(options: LocalMediaNodeOptions = {}): () => LocalMediaNode {
  let node: LocalMediaNode | undefined;
  let request: APIRequestContext | undefined;
  test.beforeAll(async ({ playwright, baseURL }) => {
    request = await playwright.request.newContext({ baseURL });
    node = await startLocalMediaNode(request, baseURL ?? '', options);
  });
  test.afterAll(async () => {
    await node?.remove();
    await request?.dispose();
  });
  return () => {
    if (!node) throw new Error('the media node is not running');
    return node;
  };
}

/** A new account and an RTMP stream of it, created from where the local media node is, so the node serves it. */
export async function accountWithStreamOnLocalNode(
  request: APIRequestContext,
  caption: string,
): Promise<{ account: TestAccount; token: string; stream: StreamInput }> {
  const account = await createAccount(request);
  const token = await apiLogin(request, { username: account.username, password: account.password });
  const stream = await apiCreateInput(request, token, {
    format: 'RTMP',
    caption,
    streamer: { ipAddress: STREAMER_IP },
  });
  return { account, token, stream };
}
