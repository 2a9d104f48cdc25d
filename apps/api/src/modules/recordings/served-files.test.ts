import { randomBytes, randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { expectValidationError, useTestApp } from '../../../test/helpers.js';
import { useLocalStorage } from '../../../test/local-storage.js';
import { StreamJobWorld } from '../../../test/stream-jobs.js';
import { CONTROL_PLANE_NODE } from '../statistics/served-traffic.js';

// Files the control plane serves from storages: the bytes of recordings' and clips' files are billed as the
// stream's outgoing traffic (docs/decisions.md, "Bytes served by the control plane"), and a clip's storyboard is
// served by its links' token. Real S3 on loopback, real HTTP for an abort.
const t = useTestApp(() => ({ clock: w.clock }), { roles: true });
const w = new StreamJobWorld(t, { path: 'recordings', reportKind: 'recording-state', reportKey: 'recordingId' });
const { call, report } = w;
const SMALL = randomBytes(100_000);
/** Bigger than what loopback's socket buffers hold, so a viewer who stops reading is not sent all of it. */
const BIG = randomBytes(48 * 1024 * 1024);
const bucket = useLocalStorage({ 'live/small.mp4': SMALL, 'live/big.mp4': BIG });
let storageId: string;
let origin: string;

beforeAll(async () => {
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

beforeEach(async () => {
  await w.setUp();
  const storage = await call(w.owner.token, 'POST', '/storages?check=false', { name: 'Local', ...bucket.target });
  expect(storage.statusCode, storage.body).toBe(201);
  storageId = storage.json().id;
});

/** A Completed MP4 recording of the world's stream whose file is `live/<name>.mp4`: its play link. */
async function recordingLink(name: 'small' | 'big'): Promise<{ id: string; url: string }> {
  const capture = { source: 'Incoming', tracks: [{ type: 'Video' }, { type: 'Audio' }] };
  const created = await call(w.owner.token, 'POST', '/recordings', { streamId: w.streamId, storageId, capture });
  expect(created.statusCode, created.body).toBe(201);
  const { id } = created.json();
  const length = name === 'big' ? BIG.length : SMALL.length;
  await report(id, { state: 'Completed', objectKey: `live/${name}.mp4`, duration: 12, length });
  const playback = await call(w.owner.token, 'POST', `/recordings/${id}/playback`);
  expect(playback.statusCode, playback.body).toBe(200);
  return { id, url: playback.json().url };
}

/** A Ready clip of a recording of the world's stream, its file at `objectKey`: its id and playback links. */
async function readyClip(objectKey: string) {
  const { id: recordingId } = await recordingLink('small');
  const created = await call(w.owner.token, 'POST', '/clips', { recordingId, from: 0, to: 5, caption: 'Goal' });
  expect(created.statusCode, created.body).toBe(201);
  const clipId: string = created.json().id;
  const ready = await t.report(w.node.token, [
    { id: randomUUID(), kind: 'clip-state', clipId, state: 'Ready', duration: 5, size: SMALL.length, objectKey },
  ]);
  expect(ready.statusCode, ready.body).toBe(200);
  const playback = await call(w.owner.token, 'POST', `/clips/${clipId}/playback`);
  expect(playback.statusCode, playback.body).toBe(200);
  return { clipId, ...(playback.json() as { url: string; storyboardUrl: string }) };
}

const window = () => {
  const now = w.clock.now().getTime();
  return `from/${new Date(now - 3600_000).toISOString()}/to/${new Date(now + 3600_000).toISOString()}`;
};
const streamUsage = (token: string) => call(token, 'GET', `/statistics/stream/${w.streamId}/${window()}`);
/** The stream's outgoing bytes the control plane served, as the owner's one-stream report reads them. */
async function billed(): Promise<number> {
  await t.app.services.servedTraffic.flush();
  const response = await streamUsage(w.owner.token);
  expect(response.statusCode, response.body).toBe(200);
  const [stream] = response.json().streams as Array<{ outgoing: Array<{ nodeId: string; download: number }> }>;
  return stream?.outgoing.find((traffic) => traffic.nodeId === CONTROL_PLANE_NODE.id)?.download ?? 0;
}
/** Waits until the bill shows `bytes` (the count lands when the response's body closes, after its last byte). */
const billedBecomes = (bytes: number) => vi.waitFor(async () => expect(await billed()).toBe(bytes), { timeout: 5000 });

describe('bytes served from files, billed as the stream’s outgoing traffic', () => {
  it('bills a whole file, then a byte range by its length', async () => {
    const { url } = await recordingLink('small');
    expect(await billed()).toBe(0);
    const whole = await t.request({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    await billedBecomes(SMALL.length);
    const range = await t.request({ method: 'GET', url, headers: { range: 'bytes=1000-1999' } });
    expect(range.statusCode).toBe(206);
    await billedBecomes(SMALL.length + 1000);
    // A refused link sends no file and bills nothing.
    expect((await t.request({ method: 'GET', url: `${url}x` })).statusCode).toBe(403);
    await billedBecomes(SMALL.length + 1000);
  });

  it('bills an aborted download by what was sent, not by the size of the file', async () => {
    const { url } = await recordingLink('big');
    // A viewer on a raw connection reads the first bytes, then goes away (a fetch aborted keeps its socket open).
    const { port } = new URL(origin);
    const received = await new Promise<number>((resolve, reject) => {
      const viewer = connect(Number(port), '127.0.0.1', () =>
        viewer.write(`GET ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
      );
      viewer.once('data', (chunk) => {
        viewer.destroy();
        resolve(chunk.length);
      });
      viewer.once('error', reject);
    });
    await vi.waitFor(async () => expect(await billed()).toBeGreaterThan(0), { timeout: 5000 });
    const bytes = await billed();
    expect(bytes).toBeGreaterThanOrEqual(received);
    expect(bytes).toBeLessThan(BIG.length / 2);
  });

  it("bills a clip's file to its stream", async () => {
    const { url } = await readyClip('live/small.mp4');
    const range = await t.request({ method: 'GET', url, headers: { range: 'bytes=0-4095' } });
    expect(range.statusCode).toBe(206);
    await billedBecomes(4096);
  });

  it('shows the bytes to the owner and an ADMIN, never to another USER', async () => {
    const { url } = await recordingLink('small');
    await t.request({ method: 'GET', url });
    await billedBecomes(SMALL.length);
    const served = {
      nodeId: CONTROL_PLANE_NODE.id,
      node: 'Control plane',
      duration: 0,
      upload: 0,
      download: SMALL.length,
    };
    const listed = async (token: string) => {
      const response = await call(token, 'GET', `/statistics/stream/${window()}`);
      expect(response.statusCode).toBe(200);
      return response.json().streams as Array<{ streamId: string; outgoing: unknown[] }>;
    };
    for (const token of [w.owner.token, w.admin.token]) {
      expect((await streamUsage(token)).json().streams[0].outgoing).toEqual([served]);
      expect((await listed(token)).find((stream) => stream.streamId === w.streamId)?.outgoing).toEqual([served]);
    }
    expect((await streamUsage(w.other.token)).statusCode).toBe(404);
    expect((await listed(w.other.token)).map((stream) => stream.streamId)).not.toContain(w.streamId);
    // Billing outlives the stream, as a node's traffic does.
    expect((await call(w.owner.token, 'DELETE', `/inputs/${w.streamId}`)).statusCode).toBe(204);
    expect((await streamUsage(w.owner.token)).json().streams[0].outgoing).toEqual([served]);
  });
});

describe("a clip's storyboard", () => {
  const SHEET = randomBytes(3000);
  const VTT =
    'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nstoryboard-0.jpg#xywh=0,0,160,90\n\n00:00:02.000 --> 00:00:05.000\nstoryboard-0.jpg#xywh=160,0,160,90\n';

  it("is served by the playback links' token: the VTT with its sheets' URIs signed, the sheets; its bytes billed", async () => {
    const key = `live/clips/${randomUUID()}`;
    await bucket.put(`${key}/storyboard.vtt`, VTT);
    await bucket.put(`${key}/storyboard-0.jpg`, SHEET);
    const { clipId, storyboardUrl } = await readyClip(`${key}.mp4`);
    expect(storyboardUrl).toMatch(new RegExp(`^/api/v1/clips/${clipId}/storyboard/storyboard\\.vtt\\?token=`));
    const token = new URL(storyboardUrl, 'http://api').searchParams.get('token') ?? '';

    const vtt = await t.request({ method: 'GET', url: storyboardUrl });
    expect(vtt.statusCode, vtt.body).toBe(200);
    expect(vtt.headers['content-type']).toBe('text/vtt; charset=utf-8');
    const signed = VTT.replaceAll('storyboard-0.jpg#', `storyboard-0.jpg?${new URLSearchParams({ token })}#`);
    expect(vtt.body).toBe(signed);
    // A player resolves a cue's URI against the VTT's, as the console does.
    const cue = vtt.body.split('\n')[3] ?? '';
    const sheetUrl = new URL(cue, `http://api${storyboardUrl}`);
    const sheet = await t.request({ method: 'GET', url: `${sheetUrl.pathname}${sheetUrl.search}` });
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['content-type']).toBe('image/jpeg');
    expect(sheet.rawPayload.equals(SHEET)).toBe(true);
    await billedBecomes(Buffer.byteLength(signed) + SHEET.length);
  });

  it('refuses a bad token (403), a file not of a storyboard (400 naming it), and is 404 when the clip has none', async () => {
    const { clipId, storyboardUrl } = await readyClip(`live/clips/${randomUUID()}.mp4`);
    const forged = await t.request({
      method: 'GET',
      url: `/api/v1/clips/${clipId}/storyboard/storyboard.vtt?token=rf1.play.9999999999.forged`,
    });
    expect(forged.statusCode).toBe(403);
    const other = await t.request({ method: 'GET', url: storyboardUrl.replace('storyboard.vtt', 'clip.mp4') });
    expectValidationError(other, 'params.file', 'file must be storyboard.vtt or storyboard-<n>.jpg');
    expect((await t.request({ method: 'GET', url: storyboardUrl })).statusCode).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: storyboardUrl.replace('storyboard.vtt', 'storyboard-0.jpg') })).statusCode,
    ).toBe(404);
    expect(await billed()).toBe(0);
  });
});
