import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALLERS, expectValidationError, type MatrixRow, roleMatrixTests, useTestApp } from '../../../test/helpers.js';
import { makePng } from '../../../test/images.js';

/** A console build of two pages: the console's and the player's. */
const consoleDir = mkdtempSync(join(tmpdir(), 'play-console-'));
writeFileSync(join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
writeFileSync(join(consoleDir, 'play.html'), '<!doctype html><title>player</title><main id="player"></main>');

/** Issue 37: the public read behind the embeddable player page, and the page. */
const t = useTestApp({ consoleDir }, { roles: true });

const info = (id: string, token?: string) => t.request({ method: 'GET', url: `/api/v1/play/${id}`, token });
const everyone = Object.fromEntries(CALLERS.map((caller) => [caller, 200])) as Record<(typeof CALLERS)[number], 200>;

/** A stream on a node (so its outputs have a connection), and an output of it. */
async function liveOutput(output: object = {}, stream: object = {}) {
  const node = await t.createNode(t.roles.admin);
  const input = await t.createInput(stream);
  return { node, input, output: await t.createOutput({ streamId: input.id, ...output }) };
}

const snapshotReport = (streamId: string) => ({
  id: randomUUID(),
  kind: 'snapshot',
  streamId,
  direction: 'outgoing',
  image: makePng(32, 18).toString('base64'),
});

describe('role matrix', () => {
  const rows: MatrixRow<{ output: string }>[] = [
    { name: 'GET /play/{id}', call: ({ output }) => ['GET', `/api/v1/play/${output}`], expected: everyone },
  ];
  roleMatrixTests(rows, {
    roles: () => t.roles,
    subject: async () => {
      const input = await t.createInput();
      return { output: (await t.createOutput({ streamId: input.id, format: 'WebRTC' })).id };
    },
    // Whoever asks gets the same answer: nothing of the owner's view.
    check: (response) =>
      expect(Object.keys(response.json()).sort()).toEqual([
        'access',
        'format',
        'hlsLatency',
        'outputId',
        'playback',
        'poster',
        'streamStatus',
        'viewerSession',
      ]),
  });
});

describe('GET /play/{id}', () => {
  it("answers a WebRTC output's WHEP URL, the stream's status and access, to anyone", async () => {
    const { input, output } = await liveOutput({ format: 'WebRTC' });
    const answer = await info(output.id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({
      outputId: output.id,
      format: 'WebRTC',
      streamStatus: input.status,
      access: 'Public',
      hlsLatency: null,
      playback: { whep: output.connection?.signallingUri },
      poster: null,
      viewerSession: expect.stringMatching(/^vs1\./),
    });
    expect(output.connection?.signallingUri).toMatch(/\/whep\//);
  });

  it("answers an HLS output's playlist URL only, and its latency", async () => {
    const { output } = await liveOutput({ format: 'HLS', hlsLatency: 'Standard' });
    expect((await info(output.id)).json()).toMatchObject({
      hlsLatency: 'Standard',
      playback: { hls: output.connection?.uri },
    });
    expect((await info(output.id)).json().playback).toEqual({ hls: output.connection?.uri });
    const low = await liveOutput({ format: 'HLS' });
    expect((await info(low.output.id)).json().hlsLatency).toBe('Low');
  });

  it("gives a WebRTC output its stream's HLS output of the same access as the fallback; never a Private one", async () => {
    const { input, output } = await liveOutput({ format: 'WebRTC' });
    await t.createOutput({ streamId: input.id, format: 'HLS', access: 'Signed' });
    expect((await info(output.id)).json()).toMatchObject({ hlsLatency: null, playback: { whep: expect.any(String) } });
    expect((await info(output.id)).json().playback.hls).toBeUndefined();
    const hls = await t.createOutput({ streamId: input.id, format: 'HLS', hlsLatency: 'Low' });
    expect((await info(output.id)).json()).toMatchObject({
      hlsLatency: 'Low',
      playback: { whep: output.connection?.signallingUri, hls: hls.connection?.uri },
    });
    // Polled by every embed: the output, its stream, the fallback and their one node, each read once.
    expect(await t.queryCount(() => info(output.id))).toBe(5);
    const closed = await t.createOutput({ streamId: input.id, format: 'WebRTC', access: 'Private' });
    await t.createOutput({ streamId: input.id, format: 'HLS', access: 'Private' });
    expect((await info(closed.id)).json().playback).toEqual({ whep: closed.connection?.signallingUri });
  });

  it('gives a non-browser output and a stream without a node no playback URL', async () => {
    const input = await t.createInput();
    const waiting = await t.createOutput({ streamId: input.id, format: 'WebRTC' });
    expect(waiting.connection).toBeNull();
    expect((await info(waiting.id)).json()).toMatchObject({ streamStatus: 'Pending', playback: {} });
    const { output } = await liveOutput({ format: 'RTMP' });
    expect((await info(output.id)).json().playback).toEqual({});
  });

  it("tells nothing secret: a Private output's token, the owner and the node stay out", async () => {
    const { output } = await liveOutput({ format: 'WebRTC' }, { access: 'Private' });
    const token = output.viewer.accessToken;
    expect(token).toBeTruthy();
    const answer = await info(output.id);
    expect(answer.json()).toMatchObject({ access: 'Private' });
    expect(answer.body).not.toContain(token);
    expect(answer.body).not.toContain(t.roles.owner.id);
    expect(answer.body).not.toContain(output.streamId);
    expect(answer.body).not.toMatch(/"(accessToken|token|owner\w*|node|viewer|sessions)":/);
  });

  it('gives a Public output the latest snapshot as its poster, anonymously; not a Private one', async () => {
    const { node, input, output } = await liveOutput({ format: 'WebRTC' });
    expect((await info(output.id)).json().poster).toBeNull();
    const settings = { format: 'PNG', quality: 'Medium', interval: 5 };
    const put = await t.request({
      method: 'PUT',
      url: `/api/v1/snapshots/stream/${input.id}/outgoing`,
      token: t.roles.owner.token,
      payload: settings,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await t.report(node.token, [snapshotReport(input.id)])).statusCode).toBeLessThan(300);
    const poster = (await info(output.id)).json().poster;
    expect(poster).toMatch(new RegExp(`^/api/v1/play/${output.id}/poster\\?t=\\d+$`));
    const image = await t.request({ method: 'GET', url: poster });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['cache-control']).toBe('no-cache');

    const closed = await t.createOutput({ streamId: input.id, format: 'HLS', access: 'Private' });
    expect((await info(closed.id)).json().poster).toBeNull();
    expect((await t.request({ method: 'GET', url: `/api/v1/play/${closed.id}/poster` })).statusCode).toBe(404);
  });

  it('is 404 for an unknown output and 400 naming the field for a malformed id', async () => {
    expect((await info(randomUUID())).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/v1/play/${randomUUID()}/poster` })).statusCode).toBe(404);
    expectValidationError(await info('not-a-uuid'), 'params.id');
  });
});

describe('the player page', () => {
  it('may be framed by any site; the console may not', async () => {
    const page = await t.request({ method: 'GET', url: `/play/${randomUUID()}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="player"');
    expect(page.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(page.headers['x-frame-options']).toBeUndefined();
    const consolePage = await t.request({ method: 'GET', url: '/' });
    expect(consolePage.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(consolePage.headers['x-frame-options']).toBeDefined();
    const missing = await t.request({ method: 'GET', url: '/play/nope' });
    expect(missing.statusCode).toBe(404);
  });
});
