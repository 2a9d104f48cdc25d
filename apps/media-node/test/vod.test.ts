import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamInput, StreamOutput, Vod } from '@streamcloud/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTestPattern, runTool, waitFor } from './harness.js';
import { createSigningKey, mintToken, type TestSigningKey } from './playback-tokens.js';
import { probeFile } from './s3.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * VOD of an ended stream (issue 35): once a push's reconnect grace is over, the node keeps the session from its
 * rewind window as an HLS VOD playlist (EXT-X-PLAYLIST-TYPE:VOD, EXT-X-ENDLIST), reports it, and plays it through
 * the stream's Low latency output; the stream's next session replaces it (the old one is reported Evicted). The
 * window's storyboard (a sprite sheet and its WebVTT) is served while the push goes on, with the playlists' token
 * rules (a Signed output beside), and kept with the VOD.
 */
const GRACE_MS = 1000;
const world = useMediaNode('vod', { RECONNECT_GRACE_MS: String(GRACE_MS), REPORT_INTERVAL_MS: '500' });
const { api, createStream, createOutput, status, usage } = streamsOf(world);
let stream: StreamInput;
let rewind: StreamOutput;
/** A Signed output with the same window: its storyboard needs a playback token as its playlist does. */
let signed: StreamOutput;
let key: TestSigningKey;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'vod-test-'));
  stream = await createStream({ format: 'RTMP' });
  rewind = await createOutput(stream.id, 'HLS', { hlsLatency: 'Low', dvrWindowMinutes: 1 });
  signed = await createOutput(stream.id, 'HLS', { hlsLatency: 'Low', dvrWindowMinutes: 1, access: 'Signed' });
  key = await createSigningKey(world);
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const vods = async () => (await api<Vod[]>('GET', `/vods?streamId=${stream.id}`)).body;

/** A short push of a small picture, a keyframe a second; `whileLive` runs during it; answers when it ended. */
async function broadcast(seconds: number, whileLive: () => Promise<void> = async () => {}): Promise<number> {
  const push = pushTestPattern(uriOf(stream), 'flv', seconds, { size: '160x90', rate: 15 });
  try {
    await status(stream.id, 'Ingestion', 15_000);
    await whileLive();
  } finally {
    await push.exited;
  }
  return Date.now();
}

/** The bytes of the storyboards' answers read (billed to the stream as the VOD's are). */
let storyboardBytes = 0;

const storyboardOf = (playlistUri: string) => playlistUri.replace(/index\.m3u8$/, 'storyboard.vtt');

/** A storyboard's VTT (fetched through its session's redirect) once it names a sheet, and that sheet's bytes. */
async function storyboard(vttUri: string): Promise<{ vtt: string; sheet: Buffer; type: string | null }> {
  const found = await waitFor(
    async () => {
      const response = await fetch(vttUri);
      const vtt = response.ok ? await response.text() : '';
      storyboardBytes += Buffer.byteLength(vtt);
      return { url: response.url, vtt };
    },
    (answer) => /#xywh=\d+,\d+,160,90/.test(answer.vtt),
    20_000,
    'a storyboard naming a tile',
  );
  const sheetUri = found.vtt.split('\n').find((line) => line.includes('#xywh=')) ?? '';
  const response = await fetch(new URL(sheetUri.replace(/#.*$/, ''), found.url));
  expect(response.status).toBe(200);
  return {
    vtt: found.vtt,
    sheet: Buffer.from(await response.arrayBuffer()),
    type: response.headers.get('content-type'),
  };
}

/** A JPEG's width and height (its SOF marker). */
function jpegSize(data: Buffer): { width: number; height: number } | null {
  for (let at = 2; at + 9 < data.length; ) {
    if (data[at] !== 0xff) return null;
    const marker = data[at + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xc2)
      return { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    at += 2 + data.readUInt16BE(at + 2);
  }
  return null;
}

/** The rewind window's storyboard, served only with the Signed output's token: a 5 x 5 sheet of 160x90 tiles. */
async function checkWindowStoryboard(): Promise<void> {
  const uri = storyboardOf(signed.connection?.uri ?? '');
  const anonymous = await fetch(uri);
  expect(anonymous.status).toBe(403);
  const token = mintToken(key, { sub: signed.id });
  const started = Date.now();
  const { vtt, sheet, type } = await storyboard(`${uri}?${new URLSearchParams({ token })}`);
  console.log(`the rewind window's storyboard named a tile ${Date.now() - started} ms after the stream was live`);
  expect(vtt).toMatch(/^WEBVTT\nX-PROGRAM-DATE-TIME=\d{4}-/);
  expect(vtt).toMatch(/00:00:00\.000 --> 00:00:0\d\.\d{3}\nstoryboard-0\.jpg\?sid=[^\n]*token=[^\n]*#xywh=0,0,160,90/);
  expect(type).toBe('image/jpeg');
  expect(jpegSize(sheet)).toEqual({ width: 800, height: 450 });
  // A sheet asked without the session's token is refused as a segment is.
  const sheetUri = new URL(uri);
  sheetUri.pathname = sheetUri.pathname.replace(/storyboard\.vtt$/, 'storyboard-0.jpg');
  expect((await fetch(sheetUri)).status).toBe(403);
}

/** The stream's newest VOD once it is Available with an id not in `known`, and its playlist. */
async function nextVod(known: string[]): Promise<{ vod: Vod; playlist: string }> {
  const found = await waitFor(
    async () => {
      const vod = (await vods()).find((each) => each.state === 'Available' && !known.includes(each.id));
      const response = vod?.playlistUri ? await fetch(vod.playlistUri) : null;
      return { vod, playlist: response?.ok ? await response.text() : '' };
    },
    (answer) => answer.playlist.includes('#EXT-X-ENDLIST'),
    30_000,
    'the VOD of the ended push listed and its playlist ended',
  );
  if (!found.vod) throw new Error('no VOD listed');
  return { vod: found.vod, playlist: found.playlist };
}

describe('VOD of an ended push', () => {
  let first: Vod;

  it('is listed with its times and plays whole within 10 s of the reconnect grace ending', async () => {
    const endedAt = await broadcast(5, checkWindowStoryboard);
    const { vod, playlist } = await nextVod([]);
    const afterGraceMs = Date.now() - endedAt - GRACE_MS;
    console.log(`VOD listed and its playlist answered ${afterGraceMs} ms after the reconnect grace ended`);
    expect(afterGraceMs).toBeLessThanOrEqual(10_000);
    first = vod;
    expect(vod).toMatchObject({ streamId: stream.id, outputId: rewind.id });
    expect(vod.playlistUri).toBe(rewind.connection?.uri?.replace(/index\.m3u8$/, 'vod/index.m3u8'));
    expect(Date.parse(vod.endedAt) - Date.parse(vod.startedAt)).toBeCloseTo(vod.duration * 1000, -3);
    // The push's first second or so is not packaged (the pipeline starts, the first keyframe is held: packager.ts).
    expect(vod.duration).toBeGreaterThanOrEqual(2);
    expect(vod.duration).toBeLessThanOrEqual(6);
    expect(vod.size).toBeGreaterThan(0);
    expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(playlist).toMatch(/#EXT-X-MAP:URI="init-\d+\.mp4\?sid=/);
    expect(playlist).not.toContain('#EXT-X-PART');
    // Its storyboard: the window's sheets, the cues on the VOD's own timeline (from 0).
    const kept = await storyboard(storyboardOf(vod.playlistUri ?? ''));
    expect(kept.vtt).toMatch(/^WEBVTT\n\n00:00:00\.000 --> /);
    expect(jpegSize(kept.sheet)).toEqual({ width: 800, height: 450 });

    // ffmpeg reads every segment through the output's HLS session into one file: as long as the VOD says.
    const copy = join(work, 'vod.mp4');
    const read = await runTool('ffmpeg', ['-v', 'error', '-i', vod.playlistUri ?? '', '-c', 'copy', copy], 30_000);
    expect(read.code, read.stderr).toBe(0);
    const probed = await probeFile(copy);
    expect(probed.duration).toBeGreaterThanOrEqual(vod.duration - 1);
    expect(probed.duration).toBeLessThanOrEqual(vod.duration + 1);
    expect(probed.streams).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ codec_type: 'video', codec_name: 'h264', width: 160, height: 90 }),
        expect.objectContaining({ codec_type: 'audio', codec_name: 'aac' }),
      ]),
    );
    // Read through the output's HLS session: billed as the stream's outgoing traffic (nobody watched it live), the
    // segments and the few kB of the playlist and init segments, and the storyboards read above.
    const billed = await waitFor(
      () => usage(stream.id),
      (now) => now.outgoing >= vod.size + storyboardBytes,
      10_000,
      "the VOD's bytes billed to the stream",
    );
    expect(billed.outgoing).toBeLessThanOrEqual(vod.size + storyboardBytes + 25_000);
  }, 90_000);

  it("is replaced by the stream's next session, the old one Evicted with no playlist", async () => {
    await broadcast(3);
    const { vod } = await nextVod([first.id]);
    const listed = await vods();
    expect(listed.map((each) => [each.id, each.state])).toEqual([
      [vod.id, 'Available'],
      [first.id, 'Evicted'],
    ]);
    expect(listed[1]?.playlistUri).toBeNull();
  }, 60_000);
});
