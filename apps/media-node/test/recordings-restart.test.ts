import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Recording } from '@streamcloud/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTestPattern, type RunningNode, runMediaNode, waitFor } from './harness.js';
import { recordedStream, watchRecording } from './recordings.js';
import { downloadObject, type LocalS3Server, listObjects, probeFile, startLocalS3 } from './s3.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * Durability: a node killed with SIGKILL while recording finishes the upload after it restarts, and the
 * recording goes on in a continuation as soon as the encoder is back.
 */
/** The node's data directory, kept across its restart. */
const dataDir = mkdtempSync(join(tmpdir(), 'streamcloud-recorder-restart-'));
const world = useMediaNode('recorder-restart', {}, { dataDir });
const streams = streamsOf(world);
const { api, status } = streams;
let s3: LocalS3Server;

beforeAll(async () => {
  s3 = await startLocalS3(['recordings']);
});
afterAll(async () => {
  await s3?.close();
});

describe('a node killed while recording', () => {
  it('uploads the file recorded before the kill once it runs again, removes it only then, and goes on recording the next push', async () => {
    const { stream, recording } = await recordedStream(
      streams,
      s3,
      { path: 'crash' },
      { fileFormat: 'MP4', capture: { source: 'Incoming', tracks: [{ type: 'Video' }, { type: 'Audio' }] } },
    );
    const push = pushTestPattern(uriOf(stream), 'flv', 60);
    await status(stream.id, 'Ingestion');
    const before = await watchRecording(api, recording.id, (r) => r.duration >= 6, 30_000);
    const node: RunningNode = world.node;
    await node.kill();
    push.stop();
    const files = readdirSync(join(dataDir, 'recordings')).filter((name) => name.endsWith('.mp4'));
    expect(files).toHaveLength(1);

    world.node = await runMediaNode(world.plane.url, node, { MEDIA_DATA_DIR: dataDir });
    // The suite's silence time is short (4 s): the control plane may have set it to Error meanwhile, and the
    // node that comes back uploads it all the same.
    const after = await watchRecording(api, recording.id, (r) => r.state === 'Completed', 60_000);
    expect(after.last.messages.map((message) => message.text)).toContain(
      'The node restarted while recording: the file recorded so far is uploaded',
    );
    const [object] = await listObjects(s3, 'recordings', 'crash/');
    expect(object?.size).toBe(after.last.length);
    const file = await probeFile(await downloadObject(s3, 'recordings', object?.key ?? ''));
    expect(file.streams.map((track) => track.codec_name)).toEqual(['h264', 'aac']);
    expect(file.duration).toBeGreaterThanOrEqual(before.last.duration - 2);
    expect(Math.abs(file.duration - after.last.duration)).toBeLessThan(1);
    // The upload is confirmed: the file and its journal go.
    await waitFor(
      async () => readdirSync(join(dataDir, 'recordings')).filter((name) => name !== 'failed'),
      (left) => left.length === 0,
      10_000,
      'the local file to be removed',
    );

    // Nobody stopped the recording: it goes on in a continuation, which records the encoder's next push.
    const continuation = await waitFor(
      async () =>
        (await api<Recording[]>('GET', `/recordings/stream/${stream.id}`)).body.find((r) => r.id !== recording.id),
      (found) => found !== undefined,
      10_000,
      'the continuation',
    );
    const again = pushTestPattern(uriOf(stream), 'flv', 30);
    try {
      await watchRecording(api, continuation?.id ?? '', (r) => r.duration >= 2, 30_000);
      expect((await api('PUT', `/recordings/${continuation?.id}/stop`)).status).toBe(200);
      const second = await watchRecording(api, continuation?.id ?? '', (r) => r.state === 'Completed', 60_000);
      const objects = await listObjects(s3, 'recordings', 'crash/');
      expect(objects.map((o) => o.key).sort()).toEqual([object?.key, second.last.objectKey].sort());
      expect(second.last.objectKey).not.toBe(object?.key);
    } finally {
      again.stop();
    }
  }, 150_000);
});
