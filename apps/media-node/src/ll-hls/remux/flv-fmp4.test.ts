import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CmafObject, Fmp4Splitter } from '../../fmp4-splitter.js';
import { fmp4OutputArgs } from '../files.js';
import { readFragment, readInitTracks } from '../fmp4-boxes.js';
import { FlvFmp4Remuxer, HEADER_WAIT_MS } from './flv-fmp4.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'remux-test-'));
const FRAGMENT_MS = 180;

/**
 * The remuxer on real FLV: ffmpeg encodes 2 s of a 30 fps pattern (a keyframe every 15 frames, B-frames, AAC at
 * 44.1 kHz) as FLV; its tags go through the remuxer as an RTMP play delivers them, and what comes out is read back
 * by the packager's own MP4 parsing and by ffprobe, against the FLV and against ffmpeg's own remux of it.
 */
let flv: Buffer;
let ours: CmafObject[];
let theirs: CmafObject[];

beforeAll(async () => {
  const flvPath = join(dir, 'in.flv');
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=30'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100', '-t', '2'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-x264-params', 'bframes=2:b-adapt=0'],
    ...['-g', '15', '-c:a', 'aac', flvPath],
  ]);
  flv = await import('node:fs').then((fs) => fs.readFileSync(flvPath));
  ours = split(remux(flv));
  const { stdout } = await run(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-i', flvPath, ...fmp4OutputArgs(0.2)],
    {
      encoding: 'buffer',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  theirs = split(stdout);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The FLV's tags as an RTMP play delivers them: type, ms timestamp, body. */
function* flvTags(file: Buffer): Generator<{ type: number; timestamp: number; body: Buffer }> {
  let at = file.readUInt32BE(5) + 4;
  while (at + 11 <= file.length) {
    const type = file[at] ?? 0;
    const size = file.readUIntBE(at + 1, 3);
    const timestamp = file.readUIntBE(at + 4, 3) + (file[at + 7] ?? 0) * 0x1000000;
    yield { type, timestamp, body: file.subarray(at + 11, at + 11 + size) };
    at += 11 + size + 4;
  }
}

function remux(file: Buffer, startMs = 0): Buffer {
  const out: Buffer[] = [];
  const remuxer = new FlvFmp4Remuxer({
    video: true,
    audio: true,
    fragmentMs: FRAGMENT_MS,
    startMs,
    emit: (bytes) => out.push(bytes),
  });
  for (const tag of flvTags(file)) {
    if (tag.type === 8) remuxer.pushAudio(tag.timestamp, tag.body);
    if (tag.type === 9) remuxer.pushVideo(tag.timestamp, tag.body);
  }
  remuxer.end();
  return Buffer.concat(out);
}

function split(bytes: Buffer): CmafObject[] {
  const objects: CmafObject[] = [];
  new Fmp4Splitter((object) => objects.push(object)).push(bytes);
  return objects;
}

const tracksOf = (objects: CmafObject[]) => readInitTracks(objects[0]?.data ?? Buffer.alloc(0));
const fragmentsOf = (objects: CmafObject[]) => {
  const tracks = new Map(tracksOf(objects).map((track) => [track.id, track]));
  return objects
    .slice(1)
    .map((object) => readFragment(object.data.subarray(object.data.indexOf('moof', 0, 'latin1') - 4 + 8), tracks));
};

async function packets(path: string, stream: string): Promise<string[]> {
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-select_streams', stream, '-show_entries', 'packet=pts_time,dts_time,size,flags'],
    ...['-of', 'csv=p=0', path],
  ]);
  return stdout.trim().split('\n');
}

describe('FLV → fragmented MP4 remuxer', () => {
  it('writes an init segment declaring what ffmpeg declares (the packager gives the same CODECS)', () => {
    expect(ours[0]?.kind).toBe('header');
    const mine = tracksOf(ours).map(({ id, kind, codec, width, height }) => ({ id, kind, codec, width, height }));
    const ffmpeg = tracksOf(theirs).map(({ id, kind, codec, width, height }) => ({ id, kind, codec, width, height }));
    expect(mine).toEqual(ffmpeg);
    expect(mine).toEqual([
      { id: 1, kind: 'video', codec: expect.stringMatching(/^avc1\.[0-9a-f]{6}$/), width: 320, height: 180 },
      { id: 2, kind: 'audio', codec: 'mp4a.40.2', width: null, height: null },
    ]);
    expect(tracksOf(ours)[1]?.timescale).toBe(44100);
  });

  it('cuts a fragment at every keyframe and once a track spans 0.9 of a part, each track continuous', () => {
    const fragments = fragmentsOf(ours);
    expect(fragments.length).toBeGreaterThan(8);
    const video = fragments.map((runs) => runs.find((run) => run.trackId === 1)).filter((run) => run !== undefined);
    // 2 s at 30 fps with a keyframe every 15 frames: keyframes at 0, 0.5, 1, 1.5 s each start a fragment.
    expect(video.filter((run) => run.startsWithSync).length).toBe(4);
    for (const run of video) expect(run.duration / 90_000).toBeLessThanOrEqual(FRAGMENT_MS / 1000 + 1 / 30 + 0.001);
    for (const trackId of [1, 2]) {
      const runs = fragments.flatMap((each) => each.filter((run) => run.trackId === trackId));
      for (let i = 1; i < runs.length; i++)
        expect(runs[i]?.baseDecodeTime).toBe((runs[i - 1]?.baseDecodeTime ?? 0) + (runs[i - 1]?.duration ?? 0));
    }
  });

  it('keeps every sample as the FLV had it: sizes, keyframes and B-frames’ presentation times (ffprobe)', async () => {
    const path = join(dir, 'ours.mp4');
    writeFileSync(path, remux(flv));
    const source = await packets(join(dir, 'in.flv'), 'v:0');
    const remuxed = await packets(path, 'v:0');
    // The last sample is held for its duration when the input ends: every other one is there, as it was.
    expect(remuxed).toEqual(source.slice(0, -1));
    expect(remuxed.some((line) => line.split(',')[0] !== line.split(',')[1])).toBe(true);
    // Audio: the same frames (sizes; their times in the sample rate's ticks) but the last.
    const sizes = async (file: string) => (await packets(file, 'a:0')).map((line) => line.split(',')[2]);
    const audio = await sizes(path);
    expect(audio).toEqual((await sizes(join(dir, 'in.flv'))).slice(0, -1));
  });

  it('starts its clock where a previous run left off', () => {
    const fragments = fragmentsOf(split(remux(flv, 5000)));
    expect(fragments[0]?.find((run) => run.trackId === 1)?.baseDecodeTime).toBe(5000 * 90);
  });

  it('fails when a probed track’s sequence header does not come within HEADER_WAIT_MS of media', () => {
    const remuxer = new FlvFmp4Remuxer({ video: true, audio: true, fragmentMs: 180, startMs: 0, emit: () => {} });
    const tags = [...flvTags(flv)].filter((tag) => tag.type === 8);
    expect(() => {
      for (const tag of tags) remuxer.pushAudio(tag.timestamp, tag.body);
    }).not.toThrow();
    expect(() => remuxer.pushAudio(HEADER_WAIT_MS + 100, tags[1]?.body ?? Buffer.alloc(0))).toThrow(
      `no video sequence header in ${HEADER_WAIT_MS} ms of media`,
    );
  });

  it('refuses a codec other than AVC and AAC', () => {
    const remuxer = new FlvFmp4Remuxer({ video: true, audio: true, fragmentMs: 180, startMs: 0, emit: () => {} });
    expect(() => remuxer.pushAudio(0, Buffer.from([0x2f, 0x00, 0x01]))).toThrow('sound format 2, not AAC');
    expect(() => remuxer.pushVideo(0, Buffer.from([0x12, 0, 0, 0, 0, 0]))).toThrow('codec id 2, not AVC');
  });
});
