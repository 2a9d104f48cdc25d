import type { TrackInfo } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { packagerInputOf } from './choose.js';

const track = (type: TrackInfo['type'], codec: string): TrackInfo => ({
  idx: 0,
  type,
  codec,
  width: null,
  height: null,
  bps: null,
  channels: null,
  rate: null,
});

describe('the LL-HLS packager input of a variant', () => {
  it('is in-process for H.264 and/or AAC tracks', () => {
    expect(packagerInputOf([track('Video', 'H264'), track('Audio', 'AAC')])).toBe('in-process');
    expect(packagerInputOf([track('Video', 'H264')])).toBe('in-process');
    expect(packagerInputOf([track('Audio', 'AAC')])).toBe('in-process');
  });

  it('is ffmpeg for any other codec, for tracks not probed yet, and when the node turned the remuxer off', () => {
    expect(packagerInputOf([track('Video', 'H264'), track('Audio', 'MP3')])).toBe('ffmpeg');
    expect(packagerInputOf([track('Video', 'H265')])).toBe('ffmpeg');
    expect(packagerInputOf(null)).toBe('ffmpeg');
    expect(packagerInputOf([])).toBe('ffmpeg');
    expect(packagerInputOf([track('Video', 'H264'), track('Audio', 'AAC')], false)).toBe('ffmpeg');
  });
});
