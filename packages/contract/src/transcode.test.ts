import { describe, expect, it } from 'vitest';
import { DEFAULT_ADJUSTABLE_TRACKS } from './streams.js';
import {
  AUDIO_PRESETS,
  describeTrack,
  formatBitrate,
  NEW_AUDIO_TRACK,
  NEW_VIDEO_TRACK,
  TranscodeConfigUpdate,
  TranscodeTrack,
  VIDEO_PRESETS,
} from './transcode.js';

const messages = (value: unknown) => {
  const result = TranscodeTrack.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

const h264 = (overrides: Record<string, unknown> = {}, settings: Record<string, unknown> = {}) => ({
  type: 'H264',
  width: 1280,
  height: 720,
  framerate: 30,
  settings: { bitrate: 2000, speedPreset: 'superfast', tune: 'zerolatency', keyIntMax: 60, ...settings },
  ...overrides,
});
const vp8 = (settings: Record<string, unknown> = {}) => ({
  type: 'VP8',
  framerate: 30,
  settings: { bitrate: 2000, keyMaxDist: 60, ...settings },
});
const audio = (type: string, overrides: Record<string, unknown> = {}, bitrate = 128) => ({
  type,
  rate: 48000,
  channels: 2,
  settings: { bitrate },
  ...overrides,
});

describe('track rules (section 5)', () => {
  it('accepts the default ladder, the presets and the new-track defaults', () => {
    for (const track of [
      ...DEFAULT_ADJUSTABLE_TRACKS,
      ...VIDEO_PRESETS.map((p) => p.track),
      ...AUDIO_PRESETS.map((p) => p.track),
      NEW_VIDEO_TRACK,
      NEW_AUDIO_TRACK,
    ]) {
      expect(messages(track), JSON.stringify(track)).toEqual([]);
    }
  });

  it('video: width and height at least 0, both set or both empty', () => {
    expect(messages(h264({ width: -1 }))).toEqual(['width: Width must be at least 0']);
    expect(messages(h264({ height: -1 }))).toEqual(['height: Height must be at least 0']);
    expect(messages(h264({ width: 0, height: 0 }))).toEqual([]);
    expect(messages(h264({ width: undefined, height: undefined }))).toEqual([]);
    expect(messages(h264({ height: undefined }))).toEqual([
      'height: Width and height must both be set or both be empty',
    ]);
    expect(messages(h264({ width: undefined }))).toEqual(['width: Width and height must both be set or both be empty']);
  });

  it('video: frame rate at least 1', () => {
    expect(messages(h264({ framerate: 0.5 }))).toEqual(['framerate: Frame rate must be at least 1']);
    expect(messages(h264({ framerate: 1 }))).toEqual([]);
    expect(messages(h264({ framerate: undefined }))).toEqual(['framerate: Frame rate is required']);
  });

  it('H264: bitrate at least 100, key interval at least 2 (0 lets the encoder choose)', () => {
    expect(messages(h264({}, { bitrate: 99 }))).toEqual(['settings.bitrate: Bitrate must be at least 100']);
    expect(messages(h264({}, { bitrate: 100 }))).toEqual([]);
    expect(messages(h264({}, { keyIntMax: 1 }))).toEqual([
      'settings.keyIntMax: Key interval must be at least 2 (or 0 to let the encoder choose)',
    ]);
    expect(messages(h264({}, { keyIntMax: 2 }))).toEqual([]);
    expect(messages(h264({}, { keyIntMax: 0 }))).toEqual([]);
    expect(messages(h264({}, { speedPreset: 'warp' }))).toEqual([
      'settings.speedPreset: Speed preset is not one of the H264 speed presets',
    ]);
    expect(messages(h264({}, { speedPreset: 'placebo', tune: 'stillimage' }))).toEqual([]);
  });

  it('VP8 and VP9: bitrate at least 100, key distance at least 2', () => {
    expect(messages(vp8({ bitrate: 99 }))).toEqual(['settings.bitrate: Bitrate must be at least 100']);
    expect(messages(vp8({ keyMaxDist: 1 }))).toEqual([
      'settings.keyMaxDist: Key distance must be at least 2 (or 0 to let the encoder choose)',
    ]);
    expect(messages({ ...vp8(), type: 'VP9' })).toEqual([]);
    expect(messages(vp8({ speedPreset: 'fast' }))).toHaveLength(1);
  });

  it('audio: rate 800 to 192000, channels 1 to 2', () => {
    expect(messages(audio('AAC', { rate: 799 }))).toEqual(['rate: Rate must be at least 800']);
    expect(messages(audio('AAC', { rate: 800 }))).toEqual([]);
    expect(messages(audio('AAC', { rate: 192000 }))).toEqual([]);
    expect(messages(audio('AAC', { rate: 192001 }))).toEqual(['rate: Rate must be at most 192000']);
    expect(messages(audio('Opus', { channels: 0 }))).toEqual(['channels: Channels must be at least 1']);
    expect(messages(audio('Opus', { channels: 3 }))).toEqual(['channels: Channels must be at most 2']);
    expect(messages(audio('MP3', { channels: 1.5 }))).toEqual(['channels: Channels must be a whole number']);
  });

  it('audio bitrate: AAC at least 10, Opus and MP3 at least 1', () => {
    expect(messages(audio('AAC', {}, 9))).toEqual(['settings.bitrate: Bitrate must be at least 10']);
    expect(messages(audio('AAC', {}, 10))).toEqual([]);
    expect(messages(audio('Opus', {}, 0))).toEqual(['settings.bitrate: Bitrate must be at least 1']);
    expect(messages(audio('Opus', {}, 1))).toEqual([]);
    expect(messages(audio('MP3', {}, 0))).toEqual(['settings.bitrate: Bitrate must be at least 1']);
    expect(messages(audio('MP3', {}, 1))).toEqual([]);
  });

  it('refuses unknown codecs and fields', () => {
    expect(messages({ ...audio('FLAC') })).toEqual(['type: Track type must be H264, VP8, VP9, AAC, Opus or MP3']);
    expect(messages({ ...h264(), extra: 1 })).toHaveLength(1);
  });
});

describe('presets (section 9)', () => {
  it('offers 1080p to 240p for H264 and VP8 at 30 fps', () => {
    expect(VIDEO_PRESETS.map((preset) => preset.label)).toEqual([
      'H264 1080p',
      'H264 720p',
      'H264 480p',
      'H264 360p',
      'H264 240p',
      'VP8 1080p',
      'VP8 720p',
      'VP8 480p',
      'VP8 360p',
      'VP8 240p',
    ]);
    expect(VIDEO_PRESETS[2]?.track).toEqual({
      type: 'H264',
      width: 854,
      height: 480,
      framerate: 30,
      settings: { bitrate: 1200, speedPreset: 'superfast', tune: 'zerolatency', keyIntMax: 60 },
    });
    expect(VIDEO_PRESETS[9]?.track).toEqual({
      type: 'VP8',
      width: 426,
      height: 240,
      framerate: 30,
      settings: { bitrate: 500, keyMaxDist: 60 },
    });
    expect(VIDEO_PRESETS.map((preset) => preset.track.settings.bitrate)).toEqual([
      4000, 2000, 1200, 800, 500, 4000, 2000, 1200, 800, 500,
    ]);
  });

  it('offers AAC and Opus at 48 kHz, 2 channels, 128 kbps', () => {
    expect(AUDIO_PRESETS.map((preset) => preset.track)).toEqual([
      { type: 'AAC', rate: 48000, channels: 2, settings: { bitrate: 128 } },
      { type: 'Opus', rate: 48000, channels: 2, settings: { bitrate: 128 } },
    ]);
  });

  it('starts a new video track as H264 2000 Superfast Zerolatency key interval 0, audio as AAC 48000/2/128', () => {
    expect(NEW_VIDEO_TRACK.settings).toEqual({
      bitrate: 2000,
      speedPreset: 'superfast',
      tune: 'zerolatency',
      keyIntMax: 0,
    });
    expect(NEW_AUDIO_TRACK).toEqual({ type: 'AAC', rate: 48000, channels: 2, settings: { bitrate: 128 } });
  });
});

describe('TranscodeConfigUpdate', () => {
  it('fills the defaults', () => {
    expect(TranscodeConfigUpdate.parse({ tracks: [] })).toEqual({
      version: 2,
      passthrough: false,
      scte35: { mode: 'None' },
      epochTimeEncoder: { enabled: false },
      overlay: null,
      tracks: [],
    });
  });

  it('maps the legacy ad-marker flag to Passthrough only when no mode is given', () => {
    expect(TranscodeConfigUpdate.parse({ tracks: [], adMarker: true }).scte35).toEqual({ mode: 'Passthrough' });
    expect(TranscodeConfigUpdate.parse({ tracks: [], adMarker: false }).scte35).toEqual({ mode: 'None' });
    expect(TranscodeConfigUpdate.parse({ tracks: [], adMarker: true, scte35: { mode: 'SpliceMedia' } }).scte35).toEqual(
      { mode: 'SpliceMedia' },
    );
    expect(TranscodeConfigUpdate.parse({ tracks: [], adMarker: true, scte35: {} }).scte35).toEqual({
      mode: 'Passthrough',
    });
  });

  it('refuses another version, an unknown mode and bad offsets', () => {
    expect(TranscodeConfigUpdate.safeParse({ tracks: [], version: 1 }).success).toBe(false);
    expect(TranscodeConfigUpdate.safeParse({ tracks: [], scte35: { mode: 'Cue' } }).error?.issues[0]?.message).toBe(
      'Ad-marker mode must be None, Passthrough or SpliceMedia',
    );
    expect(
      TranscodeConfigUpdate.safeParse({
        tracks: [],
        overlay: { data: 'data:image/png;base64,AA==', offsetX: -1, offsetY: 0 },
      }).error?.issues[0]?.message,
    ).toBe('Offset X must be at least 0');
  });
});

describe('describeTrack', () => {
  it('formats bitrates in base-10 units', () => {
    expect(formatBitrate(0)).toBe('0 bps');
    expect(formatBitrate(999)).toBe('999 bps');
    expect(formatBitrate(1000)).toBe('1 kbps');
    expect(formatBitrate(128_000)).toBe('128 kbps');
    expect(formatBitrate(1_234_567)).toBe('1.23 mbps');
    expect(formatBitrate(2_000_000)).toBe('2 mbps');
    expect(formatBitrate(999_999)).toBe('1000 kbps');
    expect(formatBitrate(3_500_000_000)).toBe('3.5 gbps');
    expect(formatBitrate(4_000_000_000_000)).toBe('4000 gbps');
  });

  it('describes video by size and audio by channels', () => {
    const video = { type: 'Video' as const, codec: 'H264', width: 1280, height: 720, bps: 2_000_000, channels: null };
    expect(describeTrack(video)).toBe('H264, 1280x720, 2 mbps');
    expect(describeTrack({ ...video, width: null, bps: null })).toBe('H264');
    const sound = { type: 'Audio' as const, codec: 'AAC', width: null, height: null, bps: 128_000, channels: 2 };
    expect(describeTrack(sound)).toBe('AAC, 2 channels, 128 kbps');
    expect(describeTrack({ ...sound, channels: 1, bps: 64_500 })).toBe('AAC, 1 channel, 64.5 kbps');
  });
});
