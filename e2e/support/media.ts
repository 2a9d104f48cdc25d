import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '@playwright/test';
import type { Location, NodeWithToken } from '@streamcloud/contract';
// The media node's own test harness starts a real node process (nginx-rtmp, ffmpeg, werift) on loopback.
import { freePort, type RunningNode, runMediaNode } from '../../apps/media-node/test/harness';
import { ADMIN, apiLogin, uniqueName } from './accounts';
import { authHeaders } from './streams';

export { freePort, pushTestPattern, rtmpReceiver, runTool } from '../../apps/media-node/test/harness';

/** An address the location lookup places; a node registered on that very spot takes the streams pushed from it. */
export const STREAMER_IP = '81.2.69.160';

export interface LocalMediaNode extends RunningNode {
  /** Stops the process and deletes the node, so later specs never get streams assigned to it. */
  remove(): Promise<void>;
}

/** Registers a node on 127.0.0.1 where STREAMER_IP is located, and runs a real media node process for it. */
async function startLocalMediaNode(request: APIRequestContext, controlPlaneUrl: string): Promise<LocalMediaNode> {
  const adminToken = await apiLogin(request, ADMIN);
  const headers = await authHeaders(request, adminToken);
  const located = await request.get(`/api/v1/info/location?ipAddress=${STREAMER_IP}`, { headers });
  expect(located.status(), 'location lookup').toBe(200);
  const { geo } = (await located.json()) as Location;
  const [port, rtmpPort, srtPort] = [await freePort(), await freePort(), await freePort()];
  const name = uniqueName('live');
  const created = await request.post('/api/v1/nodes', {
    data: {
      name,
      connection: { protocol: 'HTTP', hostname: '127.0.0.1', port },
      location: { code: 'EU', description: 'Loopback', geo },
      enabled: true,
      opened: true,
    },
    headers,
  });
  expect(created.status(), 'node registration').toBe(201);
  const node = (await created.json()) as NodeWithToken;
  const running = await runMediaNode(
    controlPlaneUrl,
    { id: node.id, name, token: node.token, port, rtmpPort, srtPort },
    { RECONNECT_GRACE_MS: '1000', REPORT_INTERVAL_MS: '1000' },
  );
  return {
    ...running,
    async remove() {
      await running.stop();
      const deleted = await request.delete(`/api/v1/nodes/${node.id}`, { headers });
      expect(deleted.status(), 'node deletion').toBe(204);
    },
  };
}

/**
 * One local media node for a spec file: started before its first test, removed after its last. Answers
 * a getter for the running node.
 */
export function useLocalMediaNode(): () => LocalMediaNode {
  let node: LocalMediaNode | undefined;
  let request: APIRequestContext | undefined;
  test.beforeAll(async ({ playwright, baseURL }) => {
    request = await playwright.request.newContext({ baseURL });
    node = await startLocalMediaNode(request, baseURL ?? '');
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
