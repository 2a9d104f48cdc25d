import type { TrackInfo, TranscodeConfig, TranscodeTrack } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { planLadder } from './plan.js';

const SOURCE: TrackInfo[] = [
  { idx: 0, type: 'Video', codec: 'H264', width: 1280, height: 720, rate: 30, bps: 3e6, channels: null },
  { idx: 1, type: 'Audio', codec: 'AAC', width: null, height: null, rate: 44100, bps: 128e3, channels: 2 },
];
const config = (tracks: TranscodeTrack[]): TranscodeConfig => ({
  version: 2,
  passthrough: false,
  scte35: { mode: 'None' },
  epochTimeEncoder: { enabled: false },
  overlay: null,
  tracks,
});
const h264 = (bitrate: number, size?: [number, number], framerate = 30): TranscodeTrack => ({
  type: 'H264',
  ...(size ? { width: size[0], height: size[1] } : {}),
  framerate,
  settings: { bitrate, speedPreset: 'veryfast', tune: 'none', keyIntMax: 0 },
});
const audio = (type: 'AAC' | 'MP3' | 'Opus', bitrate: number, rate = 48000): TranscodeTrack => ({
  type,
  rate,
  channels: 2,
  settings: { bitrate },
});

describe('planLadder', () => {
  it('orders renditions top first, fits them to the source without upscaling, and pairs audio by rank', () => {
    const plan = planLadder(
      config([h264(800, [640, 360]), h264(4000, [1920, 1080], 60), h264(2500), audio('AAC', 64), audio('AAC', 128)]),
      SOURCE,
    );
    expect(plan.renditions.map((rendition) => [rendition.key, rendition.bandwidth])).toEqual([
      ['r0', 4_128_000],
      ['r1', 2_564_000],
      ['r2', 864_000],
    ]);
    expect(plan.renditions[0]?.video).toMatchObject({ width: 1280, height: 720, framerate: 30, keyInterval: 60 });
    expect(plan.renditions[1]?.video).toMatchObject({ width: 1280, height: 720 });
    expect(plan.renditions.map((rendition) => (rendition.audio as { bitrate: number }).bitrate)).toEqual([
      128_000, 64_000, 64_000,
    ]);
    expect(plan.notes).toEqual([
      'H264 1920x1080 is larger than the source (1280x720): encoded at 1280x720, not upscaled',
      'H264 1920x1080 at 60 fps is faster than the source: encoded at 30 fps',
    ]);
  });

  it('copies what the ladder leaves out, makes extra audio tracks audio-only, and says what it cannot serve', () => {
    const audioOnly = planLadder(config([audio('AAC', 128), audio('MP3', 96), audio('Opus', 64)]), SOURCE);
    expect(audioOnly.renditions).toEqual([
      {
        key: 'r0',
        video: 'copy',
        audio: { codec: 'AAC', rate: 48000, channels: 2, bitrate: 128_000 },
        bandwidth: 128_000,
      },
      { key: 'a0', video: null, audio: { codec: 'MP3', rate: 44100, channels: 2, bitrate: 96_000 }, bandwidth: 96_000 },
    ]);
    expect(audioOnly.webrtc.audio).toEqual({ rate: 48000, channels: 2, bitrate: 64_000 });
    expect(audioOnly.notes).toEqual([
      'MP3 at 48000 Hz is encoded at 44100 Hz (RTMP and HLS carry MP3 at 44100, 22050 or 11025 Hz)',
    ]);

    const videoOnly = planLadder(
      config([h264(1000, [640, 360]), { type: 'VP9', framerate: 30, settings: { bitrate: 900, keyMaxDist: 0 } }]),
      SOURCE,
    );
    expect(videoOnly.renditions).toEqual([expect.objectContaining({ key: 'r0', audio: 'copy', bandwidth: 1_000_000 })]);
    expect(videoOnly.notes).toEqual([
      'VP9 at the source size is not served: HLS and RTMP carry H.264, and WebRTC viewers get VP8',
    ]);

    const webrtc = planLadder(
      config([{ type: 'VP8', width: 640, height: 360, framerate: 30, settings: { bitrate: 700, keyMaxDist: 30 } }]),
      SOURCE,
    );
    expect(webrtc.renditions).toEqual([]);
    expect(webrtc.webrtc.video).toEqual({ width: 640, height: 360, framerate: 30, bitrate: 700_000, keyInterval: 30 });
  });
});
