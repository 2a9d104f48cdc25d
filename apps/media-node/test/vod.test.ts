import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StreamInput, StreamOutput, Vod } from '@streamcloud/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTestPattern, runTool, waitFor } from './harness.js';
import { probeFile } from './s3.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * VOD of an ended stream (issue 35): once a push's reconnect grace is over, the node keeps the session from its
 * rewind window as an HLS VOD playlist (EXT-X-PLAYLIST-TYPE:VOD, EXT-X-ENDLIST), reports it, and plays it through
 * the stream's Low latency output; the stream's next session replaces it (the old one is reported Evicted).
 */
const GRACE_MS = 1000;
const world = useMediaNode('vod', { RECONNECT_GRACE_MS: String(GRACE_MS), REPORT_INTERVAL_MS: '500' });
const { api, createStream, createOutput, status, usage } = streamsOf(world);
let stream: StreamInput;
let rewind: StreamOutput;
let work: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'vod-test-'));
  stream = await createStream({ format: 'RTMP' });
  rewind = await createOutput(stream.id, 'HLS', { hlsLatency: 'Low', dvrWindowMinutes: 1 });
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const vods = async () => (await api<Vod[]>('GET', `/vods?streamId=${stream.id}`)).body;

/** A short push of a small picture, a keyframe a second; answers when it ended. */
async function broadcast(seconds: number): Promise<number> {
  const push = pushTestPattern(uriOf(stream), 'flv', seconds, { size: '160x90', rate: 15 });
  await status(stream.id, 'Ingestion', 15_000);
  await push.exited;
  return Date.now();
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
    const endedAt = await broadcast(5);
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
    // segments and the few kB of the playlist and init segments.
    const billed = await waitFor(
      () => usage(stream.id),
      (now) => now.outgoing >= vod.size,
      10_000,
      "the VOD's bytes billed to the stream",
    );
    expect(billed.outgoing).toBeLessThanOrEqual(vod.size + 20_000);
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
