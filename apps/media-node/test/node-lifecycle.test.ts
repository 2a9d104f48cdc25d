import { describe, expect, it } from 'vitest';
import { pushTestPattern, startMediaNode, waitFor } from './harness.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';

/** A media node's own life: it dies, it restarts. */
const world = useMediaNode();
const { api, createStream, getStream, status } = streamsOf(world);

describe('a media node that dies', () => {
  it('takes its streams out of Ingestion within the silence bound while the control plane goes on', async () => {
    const doomed = await startMediaNode(world.plane, 'media-doomed');
    // Only the doomed node takes new streams now.
    await api('PUT', `/nodes/${world.node.id}`, {
      name: 'media-1',
      connection: { protocol: 'HTTP', hostname: '127.0.0.1', port: world.node.port },
      enabled: false,
      opened: false,
    });
    const stream = await createStream({ format: 'RTMP' });
    expect(stream.nodeId).toBe(doomed.id);
    const push = pushTestPattern(uriOf(stream), 'flv', 60);
    await status(stream.id, 'Ingestion');
    const killedAt = Date.now();
    await doomed.kill();
    const after = await waitFor(
      () => getStream(stream.id),
      (s) => s.status !== 'Ingestion',
      15_000,
      'leaving Ingestion',
    );
    expect(after.status).toBe('Error');
    expect(after.statusMessages[0]?.text).toMatch(/^Node media-doomed stopped reporting for 4 s/);
    expect(Date.now() - killedAt).toBeLessThan(12_000);
    push.stop();
    expect((await fetch(`${world.plane.url}/readyz`)).status).toBe(200);
    expect((await api('GET', '/inputs')).status).toBe(200);
  });
});
