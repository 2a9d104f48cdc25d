import { allowedCodecs, emptySelector, type TrackInfo, type TrackSelector } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import {
  type CaptureOrigin,
  captureCandidates,
  captureInputArgs,
  captureMapArgs,
  captureOrigins,
  disallowedTracks,
  selectTracks,
} from '../src/pipelines/capture.js';

const video = (width: number | null, height: number | null, kbps: number | null, codec = 'H264'): TrackInfo => ({
  idx: 0,
  type: 'Video',
  codec,
  width,
  height,
  bps: kbps === null ? null : kbps * 1000,
  channels: null,
  rate: 30,
});
const audio = (kbps: number | null, codec = 'AAC'): TrackInfo => ({
  idx: 1,
  type: 'Audio',
  codec,
  width: null,
  height: null,
  bps: kbps === null ? null : kbps * 1000,
  channels: 2,
  rate: 48_000,
});
const origin = (name: string, tracks: TrackInfo[]): CaptureOrigin => ({
  source: { rtmpName: name, hlsName: name },
  tracks: tracks.map((track, idx) => ({ ...track, idx })),
});

const push = [origin('push', [video(1920, 1080, 4500), audio(160)])];
/** A transcoder's ladder: three renditions, each with its own AAC track. */
const ladder = [
  origin('r0', [video(1920, 1080, 4000), audio(128)]),
  origin('r1', [video(1280, 720, 2000), audio(128)]),
  origin('r2', [video(640, 360, 800), audio(64)]),
];

const v = (changes: Partial<TrackSelector> = {}): TrackSelector => ({ ...emptySelector('Video'), ...changes });
const a = (changes: Partial<TrackSelector> = {}): TrackSelector => ({ ...emptySelector('Audio'), ...changes });
const resolution = (
  condition: 'Exact' | 'Approximate' | 'Min' | 'Max',
  width: number | null = null,
  height: number | null = null,
  approximate: number | null = null,
) => ({ resolution: { condition, width, height, approximate } });
const bitrate = (condition: 'Min' | 'Max' | 'Approximate' | 'Greater' | 'Less', value: number | null = null) => ({
  bitrate: { condition, value },
});

/** What a capture takes, as `<origin>:<type>:<size or kbps>` for readable expectations. */
function picked(selectors: TrackSelector[], origins: CaptureOrigin[]): string[] {
  return selectTracks(selectors, captureCandidates(origins)).tracks.map(({ origin, track }) =>
    track.type === 'Video'
      ? `${origin.rtmpName}:${track.width}x${track.height}`
      : `${origin.rtmpName}:audio:${(track.bps ?? 0) / 1000}`,
  );
}

describe('capture selection', () => {
  it('takes every track of its type for a selector that sets nothing (the All preset)', () => {
    expect(picked([v(), a()], push)).toEqual(['push:1920x1080', 'push:audio:160']);
    expect(picked([v(), a()], ladder)).toEqual([
      'r0:1920x1080',
      'r1:1280x720',
      'r2:640x360',
      'r0:audio:128',
      'r1:audio:128',
      'r2:audio:64',
    ]);
  });

  it('takes video only when only a video selector is given, and says which selectors matched nothing', () => {
    expect(picked([v()], push)).toEqual(['push:1920x1080']);
    const selection = selectTracks([v({ codec: 'VP8' }), a({ codec: 'AAC' })], captureCandidates(push));
    expect(selection.unmatched).toEqual([0]);
    expect(selection.tracks.map(({ track }) => track.codec)).toEqual(['AAC']);
  });

  it('picks by idx: the push keeps its probed numbers, renditions are numbered on across the ladder', () => {
    expect(picked([a({ idx: 1 })], push)).toEqual(['push:audio:160']);
    expect(picked([v({ idx: 1 })], push)).toEqual([]);
    // r0: 0 video, 1 audio; r1: 2 video, 3 audio; r2: 4 video, 5 audio.
    expect(picked([v({ idx: 2 }), a({ idx: 5 })], ladder)).toEqual(['r1:1280x720', 'r2:audio:64']);
  });

  it('reads Min and Max without a size as the lowest and the highest resolution (Best resolution preset)', () => {
    expect(picked([v(resolution('Max'))], ladder)).toEqual(['r0:1920x1080']);
    expect(picked([v(resolution('Min'))], ladder)).toEqual(['r2:640x360']);
  });

  it('reads Min and Max with a size as the lowest at least / the highest at most that size', () => {
    expect(picked([v(resolution('Max', 1280, 720))], ladder)).toEqual(['r1:1280x720']);
    expect(picked([v(resolution('Max', 1279, 720))], ladder)).toEqual(['r2:640x360']);
    expect(picked([v(resolution('Min', 700, 400))], ladder)).toEqual(['r1:1280x720']);
    expect(picked([v(resolution('Min', 3840, 2160))], ladder)).toEqual([]);
  });

  it('matches Exact sizes exactly and Approximate ones within the tolerance (10 % by default), nearest first', () => {
    expect(picked([v(resolution('Exact', 1280, 720))], ladder)).toEqual(['r1:1280x720']);
    expect(picked([v(resolution('Exact', 1280, 719))], ladder)).toEqual([]);
    expect(picked([v(resolution('Approximate', 1200, 680))], ladder)).toEqual(['r1:1280x720']);
    expect(picked([v(resolution('Approximate', 1000, 600))], ladder)).toEqual([]);
    expect(picked([v(resolution('Approximate', 1000, 600, 30))], ladder)).toEqual(['r1:1280x720']);
    // Both within 50 %: the nearer one.
    expect(picked([v(resolution('Approximate', 900, 500, 50))], ladder)).toEqual(['r2:640x360']);
  });

  it('applies bitrate conditions: Min/Max pick one, Greater/Less filter, Approximate is the nearest within 20 %', () => {
    expect(picked([v(bitrate('Max'))], ladder)).toEqual(['r0:1920x1080']);
    expect(picked([v(bitrate('Min'))], ladder)).toEqual(['r2:640x360']);
    expect(picked([v(bitrate('Max', 3000))], ladder)).toEqual(['r1:1280x720']);
    expect(picked([v(bitrate('Min', 1000))], ladder)).toEqual(['r1:1280x720']);
    expect(picked([v(bitrate('Greater', 800))], ladder)).toEqual(['r0:1920x1080', 'r1:1280x720']);
    expect(picked([v(bitrate('Less', 2000))], ladder)).toEqual(['r2:640x360']);
    expect(picked([v(bitrate('Approximate', 1800))], ladder)).toEqual(['r1:1280x720']);
    expect(picked([v(bitrate('Approximate', 1400))], ladder)).toEqual([]);
    // Ties are all taken: both 128 kbps audio tracks.
    expect(picked([a(bitrate('Max', 200))], ladder)).toEqual(['r0:audio:128', 'r1:audio:128']);
  });

  it('combines a selector’s conditions: resolution first, then bitrate', () => {
    expect(picked([v({ codec: 'H264', ...resolution('Max', 1920, 1080), ...bitrate('Max', 5000) })], ladder)).toEqual([
      'r0:1920x1080',
    ]);
    expect(picked([v({ codec: 'H264', ...resolution('Min', 640, 360), ...bitrate('Greater', 1000) })], ladder)).toEqual(
      [],
    );
  });

  it('never meets a size or bitrate condition with a track whose size or bitrate is unknown', () => {
    const unknown = [origin('push', [video(null, null, null), audio(null)])];
    expect(picked([v(resolution('Max')), a(bitrate('Min'))], unknown)).toEqual([]);
    expect(picked([v(), a()], unknown)).toHaveLength(2);
  });

  it('takes a track chosen by two selectors once, in the order of the first', () => {
    expect(picked([a(bitrate('Min')), v(resolution('Max')), a()], ladder)).toEqual([
      'r2:audio:64',
      'r0:1920x1080',
      'r0:audio:128',
      'r1:audio:128',
    ]);
  });

  it('finds the tracks a file format cannot hold', () => {
    const webrtc = captureCandidates([origin('push', [video(640, 480, 900, 'VP8'), audio(64, 'Opus')])]);
    const { tracks } = selectTracks([v(), a()], webrtc);
    expect(disallowedTracks(tracks, allowedCodecs('MP4')).map(({ track }) => track.codec)).toEqual(['VP8', 'Opus']);
    expect(disallowedTracks(tracks, allowedCodecs('MKV'))).toEqual([]);
  });

  it('makes one ffmpeg input per origin read, probed as its tracks ask, and one -map per track, by type and place in its origin', () => {
    const { tracks } = selectTracks([v(resolution('Exact', 640, 360)), a({ idx: 1 })], captureCandidates(ladder));
    const origins = captureOrigins(tracks);
    expect(origins.map((source) => source.rtmpName)).toEqual(['r2', 'r0']);
    const url = (name: string) => `rtmp://127.0.0.1:1/live/${name}?relay=s`;
    const played = (name: string, probeUs: string) => [
      '-rtmp_live',
      'live',
      '-analyzeduration',
      probeUs,
      '-fpsprobesize',
      '0',
      '-i',
      url(name),
    ];
    // Tracks not known to the stream: each probed until both kinds came (nginx sends video from a keyframe on).
    const [pushOrigin] = push as [CaptureOrigin];
    const pushed = pushOrigin.source;
    expect(captureInputArgs(origins, url, { source: pushed, tracks: null })).toEqual([
      ...played('r2', '10000000'),
      ...played('r0', '10000000'),
    ]);
    // The push, probed: with both kinds as long, with one kind briefly (nothing else will come).
    expect(captureInputArgs([pushed], url, { source: pushed, tracks: [...pushOrigin.tracks] })).toEqual(
      played('push', '10000000'),
    );
    expect(captureInputArgs([pushed], url, { source: pushed, tracks: [audio(96)] })).toEqual(played('push', '500000'));
    expect(captureMapArgs(tracks)).toEqual(['-map', '0:v:0', '-map', '1:a:0']);
    const all = selectTracks([v(), a()], captureCandidates(push)).tracks;
    expect(captureMapArgs(all)).toEqual(['-map', '0:v:0', '-map', '0:a:0']);
  });
});
