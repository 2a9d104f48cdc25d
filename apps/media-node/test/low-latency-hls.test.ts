import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamInput, StreamOutput } from '@streamcloud/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeMetadata, type Push, pushTestPattern, runMediaNode, runTool, waitFor } from './harness.js';
import { openHlsSession, STANDARD_HLS, streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * Issue 36: a Low latency HLS output, served by the node's LL-HLS packager — parts, preload hints, blocking
 * playlist reloads, delta updates — played by ffmpeg through a reconnect, and ended after the grace; the
 * stream's Standard output keeps nginx-rtmp's TS playlist.
 */
// The in-process remuxer (LL_HLS_REMUX, off by default) is what this file plays: ffmpeg's packaging is every other
// Low latency test's.
const NODE_ENV = { RECONNECT_GRACE_MS: '3000', REPORT_INTERVAL_MS: '500', LL_HLS_REMUX: 'on' };
/** The node's data directory, kept across its restart (the rewind window on disk). */
const dataDir = mkdtempSync(join(tmpdir(), 'streamcloud-ll-hls-'));
const world = useMediaNode('media-1', NODE_ENV, { dataDir });
const { createStream, createOutput, outputs, status } = streamsOf(world);

let stream: StreamInput;
let low: StreamOutput;
let standard: StreamOutput;
/** A Low latency output with a minute of rewind (DVR, issue 35). */
let rewind: StreamOutput;
let push: Push;
const pushes: Push[] = [];

/** A small push, a keyframe a second (a segment each). */
const startPush = (seconds: number) => {
  push = pushTestPattern(uriOf(stream), 'flv', seconds, { size: '160x120', rate: 15 });
  pushes.push(push);
  return push;
};

beforeAll(async () => {
  stream = await createStream({ format: 'RTMP' });
  low = await createOutput(stream.id, 'HLS', { hlsLatency: 'Low' });
  standard = await createOutput(stream.id, 'HLS', STANDARD_HLS);
  rewind = await createOutput(stream.id, 'HLS', { hlsLatency: 'Low', dvrWindowMinutes: 1 });
  startPush(60);
  await status(stream.id, 'Ingestion', 15_000);
}, 60_000);
afterAll(async () => {
  for (const each of pushes) each.stop();
  await Promise.all(pushes.map((each) => each.exited));
});

const get = async (url: URL) => {
  const response = await fetch(url);
  return { status: response.status, text: await response.text(), type: response.headers.get('content-type') };
};

/** `url` with `params` added (a blocking or delta request). */
const asking = (url: URL, params: Record<string, string>) => {
  const asked = new URL(url);
  for (const [name, value] of Object.entries(params)) asked.searchParams.set(name, value);
  return asked;
};

/** The part a playlist's preload hint names: its media sequence number and index, and its URL. */
function preloadHint(playlist: string, base: URL): { msn: number; part: number; url: URL } {
  const hint = /#EXT-X-PRELOAD-HINT:TYPE=PART,URI="(part-(\d+)\.(\d+)\.m4s[^"]*)"/.exec(playlist);
  if (!hint) throw new Error(`no preload hint in\n${playlist}`);
  return { msn: Number(hint[2]), part: Number(hint[3]), url: new URL(hint[1] ?? '', base) };
}

describe('a Low latency HLS output', () => {
  let playlistUrl: URL;

  it('serves an LL-HLS playlist: parts with their session id, a preload hint, blocking reload and a delta update', async () => {
    playlistUrl = await openHlsSession(low);
    const sid = playlistUrl.searchParams.get('sid') ?? '';
    const first = await waitFor(
      () => get(playlistUrl),
      (answer) => answer.status === 200 && answer.text.includes('#EXT-X-PART:'),
      15_000,
      'a playlist with parts',
    );
    expect(first.type).toBe('application/vnd.apple.mpegurl');
    const lines = first.text.split('\n');
    expect(lines).toContain('#EXT-X-VERSION:9');
    expect(lines.find((line) => line.startsWith('#EXT-X-SERVER-CONTROL:'))).toMatch(
      /^#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=0\.6,CAN-SKIP-UNTIL=\d+(\.\d+)?$/,
    );
    expect(lines.find((line) => line.startsWith('#EXT-X-PART-INF:'))).toMatch(/^#EXT-X-PART-INF:PART-TARGET=0\.2$/);
    expect(lines.find((line) => line.startsWith('#EXT-X-MAP:'))).toBe(
      `#EXT-X-MAP:URI="init-0.mp4?${new URLSearchParams({ sid })}"`,
    );
    // Every URI carries the session: parts, segments and the hint alike.
    for (const uri of first.text.matchAll(/URI="([^"]+)"/g)) expect(uri[1]).toContain(`sid=${encodeURIComponent(sid)}`);

    // The push is H.264/AAC: its fMP4 is remuxed in the node's own process, no packaging ffmpeg (ll-hls/input/).
    const pipelines = async () =>
      (
        await nodeMetadata<{
          streams: { id: string; pipelines: Record<string, { variants?: { input: string }[] }> }[];
        }>(world.node)
      ).streams.find((each) => each.id === stream.id)?.pipelines['LL-HLS packager']?.variants;
    expect((await pipelines())?.map((variant) => variant.input)).toEqual(['in-process']);

    // The init segment and a part are fMP4 the session is billed for.
    const init = await fetch(new URL(`init-0.mp4?${new URLSearchParams({ sid })}`, playlistUrl));
    expect(init.status).toBe(200);
    expect(Buffer.from(await init.arrayBuffer()).toString('latin1', 4, 8)).toBe('ftyp');

    // Blocking reload: the playlist that has the hinted part is held until that part exists; the part itself
    // (asked for at once, as hls.js does with a hint) too. Both come with it.
    const hint = preloadHint(first.text, playlistUrl);
    const [blocked, part] = await Promise.all([
      get(asking(playlistUrl, { _HLS_msn: String(hint.msn), _HLS_part: String(hint.part) })),
      fetch(hint.url),
    ]);
    expect(blocked.status).toBe(200);
    expect(blocked.text).toContain(`URI="part-${hint.msn}.${hint.part}.m4s`);
    expect(part.status).toBe(200);
    expect(Buffer.from(await part.arrayBuffer()).toString('latin1', 4, 8)).toBe('moof');

    // Too far ahead is a 400 (RFC 8216bis 6.2.5.2), as is a malformed number; neither is held.
    const tooFar = await get(asking(playlistUrl, { _HLS_msn: String(hint.msn + 3) }));
    expect(tooFar.status).toBe(400);
    expect((await get(asking(playlistUrl, { _HLS_msn: 'next' }))).status).toBe(400);
    expect((await get(asking(playlistUrl, { _HLS_part: '1' }))).status).toBe(400);

    // A delta update skips the segments older than CAN-SKIP-UNTIL once the playlist is that long.
    const delta = await waitFor(
      () => get(asking(playlistUrl, { _HLS_skip: 'YES' })),
      (answer) => answer.text.includes('#EXT-X-SKIP:SKIPPED-SEGMENTS='),
      20_000,
      'a delta playlist',
    );
    const full = await get(playlistUrl);
    expect(delta.text.length).toBeLessThan(full.text.length);

    // What the session read shows under the output, billed.
    await waitFor(
      () => outputs(stream.id),
      (listed) => (listed.find((output) => output.id === low.id)?.sessions[0]?.bytes ?? 0) > 0,
      10_000,
      'the session billed',
    );
  });

  it('keeps a rewind window on disk for an output that has one: its playlist starts at the push, its first segment read back', async () => {
    const sequence = (playlist: string) => Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(playlist)?.[1]);
    // The live window is 12 segments: once the push is longer, the live playlist slides.
    await waitFor(
      () => get(playlistUrl),
      (answer) => sequence(answer.text) > 0,
      20_000,
      'the live window to slide',
    );
    const rewindUrl = await openHlsSession(rewind);
    const dvr = await get(rewindUrl);
    expect(dvr.status).toBe(200);
    expect(sequence(dvr.text)).toBe(0);
    const first = /^(seg-0\.m4s\?.*)$/m.exec(dvr.text)?.[1] ?? '';
    const segment = await fetch(new URL(first, rewindUrl));
    expect(segment.status).toBe(200);
    expect(Buffer.from(await segment.arrayBuffer()).toString('latin1', 4, 8)).toBe('moof');
    // The live output's viewers cannot reach back there.
    const live = await fetch(new URL(`seg-0.m4s${playlistUrl.search}`, playlistUrl));
    expect(live.status).toBe(404);
    const metadata = await nodeMetadata<{ protocols: { HLS: { lowLatency: { dvrBytes: number } } } }>(world.node);
    expect(metadata.protocols.HLS.lowLatency.dvrBytes).toBeGreaterThan(0);
  });

  it('plays in ffmpeg, as does the Standard output beside it (TS)', async () => {
    const played = await runTool(
      'ffmpeg',
      ['-v', 'error', '-i', playlistUrl.href, '-t', '2', '-f', 'null', '-'],
      20_000,
    );
    expect(played.code, played.stderr).toBe(0);
    const standardUrl = await openHlsSession(standard);
    const ts = await waitFor(
      () => get(standardUrl),
      (answer) => answer.status === 200 && answer.text.includes('.ts?'),
      10_000,
      'a Standard playlist',
    );
    expect(ts.text).not.toContain('#EXT-X-PART');
  });

  it('goes on after a reconnect in a new period (a discontinuity, a new init), then ends after the grace', async () => {
    push.stop();
    await push.exited;
    startPush(4);
    const resumed = await waitFor(
      () => get(playlistUrl),
      (answer) => answer.text.includes('#EXT-X-DISCONTINUITY') && answer.text.includes('init-1.mp4'),
      20_000,
      'the playlist of the resumed push',
    );
    expect(resumed.text).not.toContain('#EXT-X-ENDLIST');
    await push.exited;
    const ended = await waitFor(
      () => get(playlistUrl),
      (answer) => answer.text.includes('#EXT-X-ENDLIST'),
      20_000,
      'the end',
    );
    expect(ended.text).not.toContain('#EXT-X-PRELOAD-HINT');
  });

  it('keeps the rewind window on disk through a node restart: the next push goes on after it', async () => {
    const rewindUrl = await openHlsSession(rewind);
    const before = await get(rewindUrl);
    const firstBefore = Number(/^seg-(\d+)\.m4s/m.exec(before.text)?.[1]);
    const lastBefore = Math.max(...[...before.text.matchAll(/^seg-(\d+)\.m4s/gm)].map((match) => Number(match[1])));
    expect(lastBefore).toBeGreaterThan(firstBefore);
    const node = world.node;
    await node.stop();
    world.node = await runMediaNode(world.plane.url, node, { ...NODE_ENV, MEDIA_DATA_DIR: dataDir });
    startPush(4);
    await status(stream.id, 'Ingestion', 15_000);
    const restartedUrl = await openHlsSession(rewind);
    const after = await waitFor(
      () => get(restartedUrl),
      (answer) => answer.status === 200 && answer.text.includes('#EXT-X-DISCONTINUITY'),
      20_000,
      'the rewind playlist after the restart',
    );
    // The window written before the restart (what is still within its minute), then this push in a new period.
    const listed = [...after.text.matchAll(/^seg-(\d+)\.m4s/gm)].map((match) => Number(match[1]));
    expect(listed).toContain(lastBefore);
    expect(after.text.indexOf(`seg-${lastBefore}.m4s`)).toBeLessThan(after.text.lastIndexOf('#EXT-X-DISCONTINUITY'));
    const old = /^(seg-\d+\.m4s\?.*)$/m.exec(after.text)?.[1] ?? '';
    const segment = await fetch(new URL(old, restartedUrl));
    expect(segment.status).toBe(200);
    expect(Buffer.from(await segment.arrayBuffer()).toString('latin1', 4, 8)).toBe('moof');
  });
});
