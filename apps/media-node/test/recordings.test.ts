import type { Storage } from '@streamcloud/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTestPattern } from './harness.js';
import {
  createRecording,
  createStorage,
  downloadObject,
  type LocalS3Server,
  listObjects,
  probeFile,
  startLocalS3,
  throttledRelay,
  watchRecording,
} from './recordings.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';

/** The recorder: real pushes recorded by the node into files and uploaded to a real local S3 server. */
const world = useMediaNode('recorder');
const { api, createStream, status } = streamsOf(world);
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
      const growing = watchRecording(api, mp4.id, (r) => r.state !== 'Recording' || r.duration >= 18, 40_000);
      const recorded = await growing;
      expect(recorded.last.state).toBe('Recording');
      expect(recorded.recording.at(-1)?.length).toBeGreaterThan(recorded.recording[0]?.length ?? 0);
      expect(Date.now() - pushedAt).toBeGreaterThanOrEqual(17_000);
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
        expect(watched.last.duration).toBeGreaterThan(17);
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
