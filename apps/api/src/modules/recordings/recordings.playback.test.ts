import { randomBytes } from 'node:crypto';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { RECORDING_PLAYBACK_MESSAGES } from '@streamcloud/contract';
import { createS3Client } from '@streamcloud/s3';
import { beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/helpers.js';
import { useLocalStorage } from '../../../test/local-storage.js';
import { StreamJobWorld } from '../../../test/stream-jobs.js';

// A real S3 server on loopback holds the recordings' files; the API serves them by their links' tokens.
const t = useTestApp(() => ({ clock: w.clock }), { roles: true });
const w = new StreamJobWorld(t, { path: 'recordings', reportKind: 'recording-state', reportKey: 'recordingId' });
const { call, report } = w;
const FILE = randomBytes(100_000);
const bucket = useLocalStorage({ 'live/show.mp4': FILE });
let storageId: string;

beforeEach(async () => {
  await w.setUp();
  const storage = await call(w.owner.token, 'POST', '/storages?check=false', { name: 'Local', ...bucket.target });
  expect(storage.statusCode, storage.body).toBe(201);
  storageId = storage.json().id;
});

/** A recording of the world's stream, reported up to `state` with its file at `live/show.<ext>`. */
async function recording(state: 'Recording' | 'Uploading' | 'Completed' | 'Error', fileFormat = 'MP4') {
  const capture = { source: 'Incoming', tracks: [{ type: 'Video' }, { type: 'Audio' }] };
  const created = await call(w.owner.token, 'POST', '/recordings', {
    streamId: w.streamId,
    storageId,
    capture,
    fileFormat,
  });
  expect(created.statusCode, created.body).toBe(201);
  const { id } = created.json();
  const objectKey = `live/show.${fileFormat.toLowerCase()}`;
  if (state !== 'Recording') await report(id, { state, objectKey, duration: 12, length: FILE.length });
  return id as string;
}

const playback = (id: string, token = w.owner.token) => call(token, 'POST', `/recordings/${id}/playback`);
/** A GET of a link (a path on the API's origin), with no credential but its token. */
const fetchLink = (url: string, headers: Record<string, string> = {}) => t.request({ method: 'GET', url, headers });

describe('POST /recordings/{id}/playback', () => {
  it('answers links to the owner, an impersonating admin and an ADMIN; 401 anonymous, 404 another USER', async () => {
    const id = await recording('Completed');
    for (const token of [w.owner.token, w.tokens['ADMIN impersonating owner'], w.admin.token]) {
      const response = await playback(id, token);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        url: expect.stringMatching(new RegExp(`^/api/v1/recordings/${id}/file\\?token=rf1\\.play\\.`)),
        downloadUrl: expect.stringMatching(new RegExp(`^/api/v1/recordings/${id}/file\\?token=rf1\\.save\\.`)),
        contentType: 'video/mp4',
        playable: true,
        reason: null,
      });
      const ttl = Date.parse(response.json().expiresAt) - w.clock.now().getTime();
      expect(ttl).toBeGreaterThan(4 * 3600 * 1000 - 60_000);
      expect(ttl).toBeLessThanOrEqual(4 * 3600 * 1000);
    }
    expect((await call(undefined, 'POST', `/recordings/${id}/playback`)).statusCode).toBe(401);
    expect((await playback(id, w.other.token)).statusCode).toBe(404);
  });

  it('refuses with 409 until the file is Completed, saying why', async () => {
    for (const [state, message] of [
      ['Recording', 'The recording is still recording: it plays once Completed'],
      ['Uploading', 'The recording is still uploading: it plays once Completed'],
      ['Error', 'The recording ended in Error: it has no file to play'],
    ] as const) {
      const response = await playback(await recording(state));
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({ message, code: 'RECORDING_NOT_COMPLETED' });
    }
  });

  it('offers an MKV file for download only: browsers cannot play it', async () => {
    const response = await playback(await recording('Completed', 'MKV'));
    expect(response.json()).toMatchObject({
      contentType: 'video/x-matroska',
      playable: false,
      reason: RECORDING_PLAYBACK_MESSAGES.mkv,
    });
  });
});

describe('GET /recordings/{id}/file', () => {
  it('serves the file from the storage by the link alone, byte ranges as 206 (a player seeks)', async () => {
    const id = await recording('Completed');
    const { url, downloadUrl } = (await playback(id)).json();
    const whole = await fetchLink(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.rawPayload.equals(FILE)).toBe(true);
    expect(whole.headers).toMatchObject({
      'content-type': 'video/mp4',
      'accept-ranges': 'bytes',
      'content-length': String(FILE.length),
      'content-disposition': 'inline; filename="show.mp4"',
      'cache-control': 'private, max-age=3600',
    });
    const range = await fetchLink(url, { range: 'bytes=1000-1099' });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 1000-1099/${FILE.length}`);
    expect(range.rawPayload.equals(FILE.subarray(1000, 1100))).toBe(true);
    const rest = await fetchLink(url, { range: `bytes=${FILE.length - 10}-` });
    expect(rest.statusCode).toBe(206);
    expect(rest.rawPayload.equals(FILE.subarray(FILE.length - 10))).toBe(true);
    expect((await fetchLink(url, { range: `bytes=${FILE.length + 10}-` })).statusCode).toBe(416);

    const download = await fetchLink(downloadUrl);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe('attachment; filename="show.mp4"');
  });

  it("refuses a forged, altered, another recording's or expired token with 403, saying what to do", async () => {
    const id = await recording('Completed');
    const other = await recording('Completed');
    const { url } = (await playback(id)).json();
    const token = new URL(url, 'http://api').searchParams.get('token') ?? '';
    const refused = [
      `/api/v1/recordings/${id}/file?token=rf1.play.9999999999.forged`,
      `/api/v1/recordings/${id}/file?token=${token.replace('.play.', '.save.')}`,
      `/api/v1/recordings/${other}/file?token=${token}`,
    ];
    for (const link of refused) {
      const response = await fetchLink(link);
      expect(response.statusCode, link).toBe(403);
      expect(response.json()).toEqual({ message: RECORDING_PLAYBACK_MESSAGES.badLink, code: 'FORBIDDEN' });
    }
    expect((await fetchLink(`/api/v1/recordings/${id}/file`)).statusCode).toBe(400);
    w.clock.shift(4 * 3600 * 1000 + 1000);
    expect((await fetchLink(url)).statusCode).toBe(403);
  });

  it('answers 404 once the recording is deleted or its object is gone from the bucket', async () => {
    const id = await recording('Completed');
    const { url } = (await playback(id)).json();
    await createS3Client(bucket.target).send(new DeleteObjectCommand({ Bucket: 'media', Key: 'live/show.mp4' }));
    try {
      const gone = await fetchLink(url);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().message).toBe("The recording's file in the storage not found");
    } finally {
      await bucket.put('live/show.mp4', FILE);
    }
    expect((await call(w.owner.token, 'DELETE', `/recordings/${id}`)).statusCode).toBe(204);
    expect((await fetchLink(url)).statusCode).toBe(404);
  });
});
