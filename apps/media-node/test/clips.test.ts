import { readFile } from 'node:fs/promises';
import type { Clip, Recording, StreamInput, StreamOutput } from '@streamcloud/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Push, pushTestPattern, waitFor } from './harness.js';
import { createRecording, createStorage, watchRecording } from './recordings.js';
import { downloadObject, type LocalS3Server, listObjects, probeFile, startLocalS3 } from './s3.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * Clips (issue 35): cut by the node from a live push's rewind window (the LL-HLS packager's segments) and from a
 * recording's object, without re-encoding, uploaded to a real local S3 server and reported Ready.
 */
const world = useMediaNode('clips', { RECONNECT_GRACE_MS: '2000' });
const { api, createStream, createOutput, status } = streamsOf(world);
let s3: LocalS3Server;
let stream: StreamInput;
let rewind: StreamOutput;
let storageId: string;
let push: Push;

beforeAll(async () => {
  s3 = await startLocalS3(['clips']);
  stream = await createStream({ format: 'RTMP' });
  rewind = await createOutput(stream.id, 'HLS', { hlsLatency: 'Low', dvrWindowMinutes: 1 });
  storageId = (await createStorage(api, s3, { bucket: 'clips', path: 'live/clips-test' })).id;
  // A small picture, a keyframe a second (a segment each).
  push = pushTestPattern(uriOf(stream), 'flv', 14, { size: '160x90', rate: 15 });
  await status(stream.id, 'Ingestion', 15_000);
}, 60_000);
afterAll(async () => {
  push?.stop();
  await push?.exited;
  await s3?.close();
});

/** The rewind playlist's segments' program dates (ms), once it lists at least `count`. */
async function segmentDates(count: number): Promise<number[]> {
  const uri = rewind.connection?.uri ?? '';
  const playlist = await waitFor(
    async () => {
      const response = await fetch(uri);
      return response.ok ? response.text() : '';
    },
    (text) => (text.match(/#EXT-X-PROGRAM-DATE-TIME:/g) ?? []).length >= count,
    30_000,
    `${count} segments in the rewind playlist`,
  );
  return [...playlist.matchAll(/#EXT-X-PROGRAM-DATE-TIME:(\S+)/g)].map((match) => Date.parse(match[1] ?? ''));
}

const clipOf = async (id: string) => (await api<Clip>('GET', `/clips/${id}`)).body;
const finished = (id: string, timeoutMs: number) =>
  waitFor(
    () => clipOf(id),
    (clip) => clip.state === 'Ready' || clip.state === 'Error',
    timeoutMs,
    `clip ${id} finished`,
  );

describe('a clip of the live rewind window', () => {
  it('is Ready within 5 s of the call, in the bucket, as long as asked (from the keyframe before from)', async () => {
    const dates = await segmentDates(7);
    // From the middle of a segment: the clip starts at that segment's keyframe, half a second early.
    const from = (dates[1] ?? 0) + 500;
    const to = from + 4000;
    const calledAt = Date.now();
    const created = await api<Clip>('POST', '/clips', {
      streamId: stream.id,
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      caption: 'Four seconds',
      storageId,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const clip = await finished(created.body.id, 10_000);
    const readyAfterMs = Date.now() - calledAt;
    expect(clip, clip.message ?? '').toMatchObject({ state: 'Ready', caption: 'Four seconds' });
    expect(readyAfterMs).toBeLessThanOrEqual(5000);
    console.log(`clip of the rewind window Ready ${readyAfterMs} ms after the call`);

    const objects = await listObjects(s3, 'clips', 'live/clips-test/clips/');
    const base = `live/clips-test/clips/${clip.id}`;
    expect(objects.map((object) => object.key).sort()).toEqual(
      [`${base}.mp4`, `${base}/storyboard-0.jpg`, `${base}/storyboard.vtt`].sort(),
    );
    expect(objects.find((object) => object.key === `${base}.mp4`)?.size).toBe(clip.size);
    // Its storyboard beside it: a tile per 2 s of the clip from 0 (keyframes only), on a sheet of 5 × 5 tiles.
    const vtt = await readFile(await downloadObject(s3, 'clips', `${base}/storyboard.vtt`), 'utf8');
    expect(vtt).toMatch(/^WEBVTT\n\n00:00:00\.000 --> 00:00:0[12]\.\d{3}\nstoryboard-0\.jpg#xywh=0,0,160,90\n/);
    expect(vtt.match(/#xywh=/g)?.length).toBeGreaterThanOrEqual(2);
    const sheet = await probeFile(await downloadObject(s3, 'clips', `${base}/storyboard-0.jpg`));
    expect(sheet.streams).toEqual([expect.objectContaining({ codec_name: 'mjpeg', width: 800, height: 450 })]);
    const probed = await probeFile(await downloadObject(s3, 'clips', clip.objectKey ?? ''));
    // 4 s asked, from the keyframe 0.5 s before `from`: 4.5 s, within a GOP (1 s).
    expect(probed.duration).toBeGreaterThanOrEqual(4);
    expect(probed.duration).toBeLessThanOrEqual(5.5);
    expect(clip.duration ?? 0).toBeCloseTo(probed.duration, 1);
    expect(probed.format).toContain('mp4');
    expect(probed.streams).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 160, height: 90 }),
        expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }),
      ]),
    );
  }, 60_000);

  it('goes to Error with the reason when from is older than the window', async () => {
    const dates = await segmentDates(2);
    const before = (dates[0] ?? Date.now()) - 20_000;
    const created = await api<Clip>('POST', '/clips', {
      streamId: stream.id,
      from: new Date(before).toISOString(),
      to: new Date(before + 3000).toISOString(),
      caption: '',
      storageId,
    });
    expect(created.status).toBe(201);
    const clip = await finished(created.body.id, 10_000);
    expect(clip.state).toBe('Error');
    expect(clip.message).toMatch(/no longer in the stream's rewind window/);
  }, 30_000);
});

describe('a clip of a recording', () => {
  it("is cut from the recording's object in the storage, seeking by byte ranges", async () => {
    const second = await createStream({ format: 'RTMP' });
    const recording: Recording = await createRecording(api, {
      streamId: second.id,
      storageId,
      fileFormat: 'MP4',
      capture: { source: 'Incoming', tracks: [{ type: 'Video' }, { type: 'Audio' }] },
    });
    const recorded = pushTestPattern(uriOf(second), 'flv', 7, { size: '160x90', rate: 15 });
    await recorded.exited;
    const done = await watchRecording(api, recording.id, (r) => r.state === 'Completed' || r.state === 'Error', 40_000);
    expect(done.last.state).toBe('Completed');
    const created = await api<Clip>('POST', '/clips', {
      recordingId: recording.id,
      from: 2.5,
      to: 5,
      caption: 'From the file',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const clip = await finished(created.body.id, 15_000);
    expect(clip, clip.message ?? '').toMatchObject({ state: 'Ready', storageId });
    const probed = await probeFile(await downloadObject(s3, 'clips', clip.objectKey ?? ''));
    // 2.5 s asked, from the keyframe at or before 2.5 s: up to a GOP (1 s) more.
    expect(probed.duration).toBeGreaterThanOrEqual(2.3);
    expect(probed.duration).toBeLessThanOrEqual(3.6);
  }, 90_000);
});
