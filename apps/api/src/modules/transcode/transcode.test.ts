import { randomUUID } from 'node:crypto';
import { DEFAULT_ADJUSTABLE_TRACKS } from '@streamcloud/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { type MatrixRow, ownerOnly, roleMatrixTests, useTestApp } from '../../../test/helpers.js';
import { dataUri, makeJpeg, makePng } from '../../../test/images.js';

const t = useTestApp({}, { roles: true });
const getOutput = (id: string, token = t.roles.owner.token) =>
  t.request({ method: 'GET', url: `/api/v1/inputs/${id}/output`, token });
const putOutput = (id: string, payload: object, token = t.roles.owner.token) =>
  t.request({ method: 'PUT', url: `/api/v1/inputs/${id}/output`, token, payload });

const h264 = {
  type: 'H264',
  width: 1280,
  height: 720,
  framerate: 30,
  settings: { bitrate: 2000, speedPreset: 'superfast', tune: 'zerolatency', keyIntMax: 60 },
};
const aac = { type: 'AAC', rate: 48000, channels: 2, settings: { bitrate: 128 } };
const overlay = (bytes: Buffer, mediaType = 'image/png') => ({
  data: dataUri(bytes, mediaType),
  offsetX: 10,
  offsetY: 20,
});

describe('role matrix', () => {
  const rows: MatrixRow<string>[] = [
    {
      name: 'GET /inputs/{id}/output',
      call: (id) => ['GET', `/api/v1/inputs/${id}/output`],
      expected: ownerOnly(200),
    },
    {
      name: 'PUT /inputs/{id}/output',
      call: (id) => ['PUT', `/api/v1/inputs/${id}/output`, { tracks: [h264] }],
      expected: ownerOnly(200),
    },
  ];
  roleMatrixTests(rows, {
    roles: () => t.roles,
    subject: async () => (await t.createInput()).id,
  });

  it('GET /node/inputs/{id}/output answers the serving node only, and no user token', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    const stranger = await t.createNode(t.roles.admin, { enabled: false });
    expect(
      (await t.request({ method: 'GET', url: `/api/v1/node/inputs/${input.id}/output`, token: node.token })).statusCode,
    ).toBe(200);
    expect(
      (await t.request({ method: 'GET', url: `/api/v1/node/inputs/${input.id}/output`, token: stranger.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: `/api/v1/node/inputs/${input.id}/output`, token: t.roles.owner.token }))
        .statusCode,
    ).toBe(401);
    expect((await t.request({ method: 'GET', url: `/api/v1/node/inputs/${input.id}/output` })).statusCode).toBe(401);
  });
});

describe('GET and PUT /inputs/{id}/output', () => {
  it('answers a new adjustable stream with the six default tracks and the version-2 defaults', async () => {
    const input = await t.createInput();
    expect((await getOutput(input.id)).json()).toEqual({
      version: 2,
      passthrough: false,
      scte35: { mode: 'None' },
      epochTimeEncoder: { enabled: false },
      overlay: null,
      tracks: DEFAULT_ADJUSTABLE_TRACKS,
    });
  });

  it('saves and answers the whole configuration, equal on reload', async () => {
    const input = await t.createInput();
    const config = {
      version: 2,
      passthrough: false,
      scte35: { mode: 'SpliceMedia' },
      epochTimeEncoder: { enabled: true },
      overlay: overlay(makePng(120, 60)),
      tracks: [
        h264,
        { type: 'VP8', framerate: 25, settings: { bitrate: 800, keyMaxDist: 0 } },
        aac,
        { type: 'MP3', rate: 44100, channels: 1, settings: { bitrate: 1 } },
      ],
    };
    const saved = await putOutput(input.id, config);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual(config);
    expect((await getOutput(input.id)).json()).toEqual(config);
    // The stream's own answer carries the offsets, not the image.
    const stream = (
      await t.request({ method: 'GET', url: `/api/v1/inputs/${input.id}`, token: t.roles.owner.token })
    ).json();
    expect(stream.output).toEqual({ ...config, overlay: { offsetX: 10, offsetY: 20 } });
    const audit = await sql<{
      action: string;
      actor_id: string;
    }>`select action, actor_id from audit_log where action = 'input.output.update'`.execute(t.database.db);
    expect(audit.rows).toEqual([{ action: 'input.output.update', actor_id: t.roles.owner.id }]);
  });

  it('maps the legacy ad-marker flag to Passthrough when no mode is given', async () => {
    const input = await t.createInput();
    expect((await putOutput(input.id, { tracks: [], adMarker: true })).json().scte35).toEqual({ mode: 'Passthrough' });
    expect((await putOutput(input.id, { tracks: [], adMarker: true, scte35: { mode: 'None' } })).json().scte35).toEqual(
      { mode: 'None' },
    );
    expect((await putOutput(input.id, { tracks: [] })).json().scte35).toEqual({ mode: 'None' });
    const refused = await putOutput(input.id, { tracks: [], scte35: { mode: 'Cue' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(
      'Invalid request: body.scte35.mode: Ad-marker mode must be None, Passthrough or SpliceMedia',
    );
  });

  it('removes the overlay when it is saved as null', async () => {
    const input = await t.createInput();
    await putOutput(input.id, { tracks: [], overlay: overlay(makePng(10, 10)) });
    const cleared = await putOutput(input.id, { tracks: [], overlay: null });
    expect(cleared.json().overlay).toBeNull();
    expect((await getOutput(input.id)).json().overlay).toBeNull();
    const rows = await sql<{ count: number }>`select count(*)::int as count from input_overlays`.execute(t.database.db);
    expect(rows.rows[0]?.count).toBe(0);
  });

  it('refuses while the stream is in Ingestion and for passthrough streams (409)', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    await t.report(node.token, [{ id: randomUUID(), kind: 'stream-state', streamId: input.id, status: 'Ingestion' }]);
    const ingesting = await putOutput(input.id, { tracks: [h264] });
    expect(ingesting.statusCode).toBe(409);
    expect(ingesting.json().message).toBe('The transcoding cannot be changed while the stream is in Ingestion');
    expect((await getOutput(input.id)).statusCode).toBe(200);
    await t.report(node.token, [{ id: randomUUID(), kind: 'stream-state', streamId: input.id, status: 'Fallback' }]);
    expect((await putOutput(input.id, { tracks: [h264] })).statusCode).toBe(200);

    const passthrough = await t.createInput({ output: { passthrough: true } });
    const refused = await putOutput(passthrough.id, { tracks: [h264] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Only adjustable-transcode streams have a transcoding ladder');
    expect((await getOutput(passthrough.id)).json()).toMatchObject({ passthrough: true, tracks: [] });
  });

  it('tells the serving node the configuration with the overlay image', async () => {
    const node = await t.createNode(t.roles.admin);
    const input = await t.createInput();
    const config = { tracks: [aac], overlay: overlay(makeJpeg(100, 50, { bytes: 2000 }), 'image/jpeg') };
    await putOutput(input.id, config);
    const answer = await t.request({ method: 'GET', url: `/api/v1/node/inputs/${input.id}/output`, token: node.token });
    expect(answer.json()).toMatchObject({ tracks: [aac], overlay: config.overlay });
  });

  it('deletes the overlay with its stream', async () => {
    const input = await t.createInput();
    await putOutput(input.id, { tracks: [], overlay: overlay(makePng(10, 10)) });
    expect(
      (await t.request({ method: 'DELETE', url: `/api/v1/inputs/${input.id}`, token: t.roles.owner.token })).statusCode,
    ).toBe(204);
    const rows = await sql<{ count: number }>`select count(*)::int as count from input_overlays`.execute(t.database.db);
    expect(rows.rows[0]?.count).toBe(0);
  });
});

describe('track rules (section 5)', () => {
  const cases: Array<[string, object, string]> = [
    ['width below 0', { ...h264, width: -1 }, 'body.tracks.0.width: Width must be at least 0'],
    ['height below 0', { ...h264, height: -1 }, 'body.tracks.0.height: Height must be at least 0'],
    [
      'width without height',
      { ...h264, height: undefined },
      'body.tracks.0.height: Width and height must both be set or both be empty',
    ],
    ['frame rate below 1', { ...h264, framerate: 0 }, 'body.tracks.0.framerate: Frame rate must be at least 1'],
    [
      'H264 bitrate below 100',
      { ...h264, settings: { ...h264.settings, bitrate: 99 } },
      'body.tracks.0.settings.bitrate: Bitrate must be at least 100',
    ],
    [
      'H264 key interval 1',
      { ...h264, settings: { ...h264.settings, keyIntMax: 1 } },
      'body.tracks.0.settings.keyIntMax: Key interval must be at least 2 (or 0 to let the encoder choose)',
    ],
    [
      'VP8 bitrate below 100',
      { type: 'VP8', framerate: 30, settings: { bitrate: 50, keyMaxDist: 60 } },
      'body.tracks.0.settings.bitrate: Bitrate must be at least 100',
    ],
    [
      'VP8 key distance 1',
      { type: 'VP8', framerate: 30, settings: { bitrate: 500, keyMaxDist: 1 } },
      'body.tracks.0.settings.keyMaxDist: Key distance must be at least 2 (or 0 to let the encoder choose)',
    ],
    ['audio rate below 800', { ...aac, rate: 799 }, 'body.tracks.0.rate: Rate must be at least 800'],
    ['audio rate above 192000', { ...aac, rate: 192001 }, 'body.tracks.0.rate: Rate must be at most 192000'],
    ['no channels', { ...aac, channels: 0 }, 'body.tracks.0.channels: Channels must be at least 1'],
    ['three channels', { ...aac, channels: 3 }, 'body.tracks.0.channels: Channels must be at most 2'],
    [
      'AAC bitrate below 10',
      { ...aac, settings: { bitrate: 9 } },
      'body.tracks.0.settings.bitrate: Bitrate must be at least 10',
    ],
    [
      'Opus bitrate below 1',
      { ...aac, type: 'Opus', settings: { bitrate: 0 } },
      'body.tracks.0.settings.bitrate: Bitrate must be at least 1',
    ],
    [
      'MP3 bitrate below 1',
      { ...aac, type: 'MP3', settings: { bitrate: 0 } },
      'body.tracks.0.settings.bitrate: Bitrate must be at least 1',
    ],
    [
      'unknown codec',
      { ...aac, type: 'FLAC' },
      'body.tracks.0.type: Track type must be H264, VP8, VP9, AAC, Opus or MP3',
    ],
  ];
  for (const [name, track, message] of cases) {
    it(`refuses ${name} with a message the editor shows`, async () => {
      const input = await t.createInput();
      const response = await putOutput(input.id, { tracks: [aac, track].slice(1) });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe(`Invalid request: ${message}`);
    });
  }

  it('accepts each boundary value', async () => {
    const input = await t.createInput();
    const tracks = [
      { ...h264, width: 0, height: 0, framerate: 1, settings: { ...h264.settings, bitrate: 100, keyIntMax: 2 } },
      { type: 'VP9', framerate: 1, settings: { bitrate: 100, keyMaxDist: 2 } },
      { ...aac, rate: 800, channels: 1, settings: { bitrate: 10 } },
      { ...aac, type: 'Opus', rate: 192000, channels: 2, settings: { bitrate: 1 } },
    ];
    const response = await putOutput(input.id, { tracks });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().tracks).toEqual(tracks);
  });
});

describe('overlay image, judged by its bytes', () => {
  const refuse = async (data: string, message: string) => {
    const input = await t.createInput();
    const response = await putOutput(input.id, { tracks: [], overlay: { data, offsetX: 0, offsetY: 0 } });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toBe(message);
  };

  it('accepts a PNG of exactly 1 MB and 360x360, and a JPEG wider than 360 but not taller', async () => {
    const input = await t.createInput();
    const png = makePng(360, 360, { bytes: 1_000_000 });
    const saved = await putOutput(input.id, { tracks: [], overlay: overlay(png) });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().overlay.data).toBe(dataUri(png));
    const jpeg = makeJpeg(1000, 360, { bytes: 5000 });
    expect((await putOutput(input.id, { tracks: [], overlay: overlay(jpeg, 'image/jpeg') })).statusCode).toBe(200);
    expect((await putOutput(input.id, { tracks: [], overlay: overlay(makePng(361, 100)) })).statusCode).toBe(200);
  });

  it('names the type from the bytes, not from the data URI', async () => {
    const input = await t.createInput();
    const saved = await putOutput(input.id, { tracks: [], overlay: overlay(makePng(10, 10), 'image/jpeg') });
    expect(saved.json().overlay.data).toMatch(/^data:image\/png;base64,/);
  });

  it("refuses 1 byte over 1 MB: 'Maximum size allowed is 1 Mb'", async () => {
    await refuse(dataUri(makePng(10, 10, { bytes: 1_000_001 })), 'Maximum size allowed is 1 Mb');
  });

  it("refuses other bytes, whatever the data URI says: 'Only Images are allowed ( JPG | PNG )'", async () => {
    await refuse(
      dataUri(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'image/png'),
      'Only Images are allowed ( JPG | PNG )',
    );
    await refuse(
      dataUri(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/png'),
      'Only Images are allowed ( JPG | PNG )',
    );
    await refuse('data:image/png,not-base64', 'Only Images are allowed ( JPG | PNG )');
  });

  it("refuses both sides over 360: 'Maximum dimensions allowed 360x360 px'", async () => {
    await refuse(dataUri(makePng(361, 361)), 'Maximum dimensions allowed 360x360 px');
    await refuse(dataUri(makeJpeg(400, 500, { bytes: 3000 }), 'image/jpeg'), 'Maximum dimensions allowed 360x360 px');
  });

  it('refuses bodies over the route limit with 413, and bad offsets with 400', async () => {
    const input = await t.createInput();
    const huge = await putOutput(input.id, {
      tracks: [],
      overlay: { data: `data:image/png;base64,${'A'.repeat(2_200_000)}`, offsetX: 0, offsetY: 0 },
    });
    expect(huge.statusCode).toBe(413);
    const offsets = await putOutput(input.id, { tracks: [], overlay: { ...overlay(makePng(10, 10)), offsetY: -5 } });
    expect(offsets.json().message).toBe('Invalid request: body.overlay.offsetY: Offset Y must be at least 0');
  });
});
