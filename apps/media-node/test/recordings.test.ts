import { createServer } from 'node:net';
import type { Node, Storage } from '@streamcloud/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTestPattern, waitFor } from './harness.js';
import { createRecording, createStorage, pushFor, recordedStream, watchRecording } from './recordings.js';
import { downloadObject, type LocalS3Server, listObjects, probeFile, startLocalS3, throttledRelay } from './s3.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';

/** The recorder: real pushes recorded by the node into files and uploaded to a real local S3 server. */
// A reconnect grace long enough for a second push to start within it on a busy machine.
const world = useMediaNode('recorder', { RECONNECT_GRACE_MS: '4000' });
const streams = streamsOf(world);
const { api, createSmallLadderStream, createStream, status } = streams;
let s3: LocalS3Server;
beforeAll(async () => {
  s3 = await startLocalS3(['recordings']);
});
afterAll(async () => {
  await s3?.close();
});

const ALL = { source: 'Incoming', tracks: [{ type: 'Video' }, { type: 'Audio' }] };
const VIDEO_ONLY = { source: 'Incoming', tracks: [{ type: 'Video' }] };

describe('recording a push', () => {
  it('records the selected tracks into the bucket under the rendered name, Recording → Uploading → Completed', async () => {
    // Uploads go through a slow relay so the Uploading state and its growing figure can be seen.
    const slow = await throttledRelay(s3.port, 100_000);
    try {
      const storage: Storage = await createStorage(api, s3, { endpoint: slow.endpoint, path: '/live/suite/' });
      const stream = await createStream({ format: 'RTMP' });
      const mp4 = await createRecording(api, {
        streamId: stream.id,
        storageId: storage.id,
        fileName: 'video_{streamId}_{year}',
        fileFormat: 'MP4',
        capture: VIDEO_ONLY,
      });
      const mkv = await createRecording(api, {
        streamId: stream.id,
        storageId: storage.id,
        fileName: 'all_{uuid}',
        fileFormat: 'MKV',
        capture: ALL,
      });
      const push = pushTestPattern(uriOf(stream), 'flv', 40);
      await status(stream.id, 'Ingestion');
      const pushedAt = Date.now();
      const growing = watchRecording(api, mp4.id, (r) => r.state !== 'Recording' || r.duration >= 8, 40_000);
      const recorded = await growing;
      expect(recorded.last.state).toBe('Recording');
      expect(recorded.recording.at(-1)?.length).toBeGreaterThan(recorded.recording[0]?.length ?? 0);
      expect(Date.now() - pushedAt).toBeGreaterThanOrEqual(7_000);
      for (const recording of [mp4, mkv])
        expect((await api('PUT', `/recordings/${recording.id}/stop`)).status).toBe(200);

      const finished = (id: string) =>
        watchRecording(api, id, (r) => r.state === 'Completed' || r.state === 'Error', 60_000);
      const [video, all] = await Promise.all([finished(mp4.id), finished(mkv.id)]);
      push.stop();
      for (const watched of [video, all]) {
        expect(watched.last.messages.filter((m) => m.level === 'error')).toEqual([]);
        expect(watched.states).toEqual(['Recording', 'Uploading', 'Completed']);
        expect(watched.uploading.length).toBeGreaterThan(1);
        for (const uploading of watched.uploading) expect(uploading.uploaded).toBeLessThanOrEqual(uploading.length);
        expect(watched.last.duration).toBeGreaterThan(7);
        expect(watched.last.uploaded).toBe(watched.last.length);
      }
      const objects = await listObjects(s3, 'recordings', 'live/suite/');
      const year = new Date().getUTCFullYear();
      const videoObject = objects.find((object) => object.key === `live/suite/video_${stream.id}_${year}.mp4`);
      const allObject = objects.find((object) => /^live\/suite\/all_[0-9a-f-]{36}\.mkv$/.test(object.key));
      expect(videoObject?.size).toBe(video.last.length);
      expect(allObject?.size).toBe(all.last.length);

      const videoFile = await probeFile(await downloadObject(s3, 'recordings', videoObject?.key ?? ''));
      expect(videoFile.format).toContain('mp4');
      expect(videoFile.streams.map((track) => track.codec_name)).toEqual(['h264']);
      expect(Math.abs(videoFile.duration - video.last.duration)).toBeLessThan(1);
      const allFile = await probeFile(await downloadObject(s3, 'recordings', allObject?.key ?? ''));
      expect(allFile.format).toContain('matroska');
      expect(allFile.streams.map((track) => track.codec_name)).toEqual(['h264', 'aac']);
      expect(Math.abs(allFile.duration - all.last.duration)).toBeLessThan(1);
    } finally {
      await slow.close();
    }
  }, 150_000);
});

describe('autostart', () => {
  it('records each push into a new file, and a push that resumes within the grace into the same one', async () => {
    const { stream, recording } = await recordedStream(
      streams,
      s3,
      { path: 'auto' },
      {
        fileName: 'show',
        fileFormat: 'MP4',
        autostart: true,
        capture: ALL,
      },
    );
    expect(recording.fileName).toBe('show_{uuid}');
    const objects = () => listObjects(s3, 'recordings', 'auto/');

    await pushFor(streams, stream, 4);
    const resumed = pushTestPattern(uriOf(stream), 'flv', 4);
    await resumed.exited;
    const [one] = await waitFor(objects, (list) => list.length === 1, 30_000, 'the first object');
    await pushFor(streams, stream, 4);
    const both = await waitFor(objects, (list) => list.length === 2, 30_000, 'the second object');
    const two = both.find((object) => object.key !== one?.key);

    for (const object of [one, two]) expect(object?.key).toMatch(/^auto\/show_[0-9a-f-]{36}\.mp4$/);
    const firstFile = await probeFile(await downloadObject(s3, 'recordings', one?.key ?? ''));
    const secondFile = await probeFile(await downloadObject(s3, 'recordings', two?.key ?? ''));
    // Two pushes of 4 s in the first file, one in the second.
    expect(firstFile.duration).toBeGreaterThan(6);
    expect(secondFile.duration).toBeGreaterThan(2.5);
    expect(secondFile.duration).toBeLessThan(5);
    const { last } = await watchRecording(api, recording.id, (r) => r.state === 'Completed', 30_000);
    expect(last.messages.filter((message) => message.text.startsWith('Uploaded '))).toHaveLength(2);
    expect(last.messages.some((message) => message.text === 'Push resumed: recording on in the same file')).toBe(true);
    expect(last.duration).toBeCloseTo(secondFile.duration, 0);
  }, 120_000);
});

describe('the outgoing source', () => {
  it("records an adjustable-transcode stream's renditions, not the push", async () => {
    const storage = await createStorage(api, s3, { path: 'outgoing' });
    const stream = await createSmallLadderStream();
    const recording = await createRecording(api, {
      streamId: stream.id,
      storageId: storage.id,
      fileFormat: 'MP4',
      capture: { source: 'Outgoing', tracks: [{ type: 'Video' }, { type: 'Audio' }] },
    });
    // The push is 320x240 with 44.1 kHz audio: the file holds what the ladder made of it. The recording starts
    // once the ladder has its first fragments (seconds on a busy machine): the push outlasts that with room.
    await pushFor(streams, stream, 12);
    const { last } = await watchRecording(
      api,
      recording.id,
      (r) => r.state === 'Completed' || r.state === 'Error',
      60_000,
    );
    expect(last.state).toBe('Completed');
    const [object] = await listObjects(s3, 'recordings', 'outgoing/');
    const file = await probeFile(await downloadObject(s3, 'recordings', object?.key ?? ''));
    expect(file.streams.map((track) => track.codec_name)).toEqual(['h264', 'aac']);
    expect(file.streams[0]).toMatchObject({ width: 160, height: 90 });
    expect(file.streams[1]).toMatchObject({ sample_rate: '48000', channels: 2 });
  }, 90_000);
});

describe('storage failures', () => {
  it("ends in Error with the storage's answer when the secret is wrong, and the recording can be deleted", async () => {
    const { stream, recording } = await recordedStream(
      streams,
      s3,
      { path: 'wrong', secretAccessKey: 'not-the-secret-key-0123456789' },
      { fileFormat: 'MKV', capture: ALL },
    );
    await pushFor(streams, stream, 3);
    const { last } = await watchRecording(api, recording.id, (r) => r.state === 'Error', 30_000);
    // Newest first: the refusal, after the upload began (the file was recorded).
    expect(last.messages[1]?.text).toMatch(/^Uploading /);
    expect(last.length).toBeGreaterThan(0);
    expect(last.messages[0]).toMatchObject({
      level: 'error',
      text: expect.stringContaining(
        'Upload failed: The secret access key is wrong: the server refused the request signature (SignatureDoesNotMatch)',
      ),
    });
    expect(await listObjects(s3, 'recordings', 'wrong/')).toEqual([]);
    expect((await api('DELETE', `/recordings/${recording.id}`)).status).toBe(204);
    expect((await api('GET', `/recordings/${recording.id}`)).status).toBe(404);
  }, 60_000);

  it('retries a storage that does not answer, with backoff, and uploads once it does', async () => {
    // A port nothing listens on yet: the first attempts are refused, then a relay to S3 opens there.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const address = probe.address();
        probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const { stream, recording } = await recordedStream(
      streams,
      s3,
      { path: 'later', endpoint: `http://127.0.0.1:${port}` },
      { fileFormat: 'MP4', capture: ALL },
    );
    await pushFor(streams, stream, 3);
    const retrying = await watchRecording(
      api,
      recording.id,
      (r) =>
        r.state !== 'Recording' &&
        r.messages.some((message) => message.text.startsWith('Upload failed, trying again in')),
      30_000,
    ).catch(async (error) => {
      throw new Error(
        JSON.stringify((await api<{ messages: unknown }>('GET', `/recordings/${recording.id}`)).body.messages) +
          String(error).slice(0, 100),
      );
    });
    expect(retrying.last.state).toBe('Uploading');
    // The node's health counts the file waiting (the next load report, every 5 s).
    const backlog = () =>
      api<Node>('GET', `/nodes/${world.node.id}`).then(({ body }) => body.load?.health?.uploadBacklog);
    const waiting = await waitFor(backlog, (b) => b?.files === 1, 15_000, 'the upload backlog in the health');
    expect(waiting?.bytes).toBeGreaterThan(0);
    const relay = await throttledRelay(s3.port, 10_000_000, port);
    try {
      const { last } = await watchRecording(api, recording.id, (r) => r.state !== 'Uploading', 60_000);
      expect(last.state).toBe('Completed');
      expect(last.messages.find((message) => message.text.startsWith('Upload failed, trying again in'))).toMatchObject({
        level: 'warning',
        text: expect.stringContaining(`127.0.0.1:${port} cannot be reached from node recorder`),
      });
      expect(await listObjects(s3, 'recordings', 'later/')).toHaveLength(1);
      await waitFor(backlog, (b) => b?.files === 0, 15_000, 'no upload backlog');
    } finally {
      await relay.close();
    }
  }, 90_000);
});
