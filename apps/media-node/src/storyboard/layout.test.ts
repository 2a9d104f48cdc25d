import { describe, expect, it } from 'vitest';
import {
  clipCues,
  INTERVAL_SECONDS,
  isStoryboardFile,
  parseSheetFile,
  placeTile,
  renderVtt,
  TILES_PER_SHEET,
  type Tile,
  tileRect,
  tileSize,
  vodCues,
  vttTime,
  windowCues,
} from './layout.js';
import { firstFragment } from './sheet.js';

const size = { width: 160, height: 90 };
const tile = (msn: number, from: number, sheet = 0, slot = msn): Tile => ({
  msn,
  period: 0,
  from,
  until: from + 2000,
  sheet,
  slot,
});

describe('storyboard layout', () => {
  it('sizes a tile 160 px wide with the picture aspect, an even height', () => {
    expect(tileSize(1920, 1080)).toEqual({ width: 160, height: 90 });
    expect(tileSize(640, 480)).toEqual({ width: 160, height: 120 });
    expect(tileSize(1080, 1920)).toEqual({ width: 160, height: 284 });
    expect(tileSize(0, 0).height % 2).toBe(0);
  });

  it('places tiles row by row on a 5 x 5 sheet', () => {
    expect(tileRect(0, size)).toEqual({ x: 0, y: 0, w: 160, h: 90 });
    expect(tileRect(4, size)).toEqual({ x: 640, y: 0, w: 160, h: 90 });
    expect(tileRect(7, size)).toEqual({ x: 320, y: 90, w: 160, h: 90 });
    expect(tileRect(24, size)).toEqual({ x: 640, y: 360, w: 160, h: 90 });
  });

  it('takes a keyframe every interval, a new sheet when one is full, closed or of another period', () => {
    const first = placeTile(undefined, { programDate: 0, period: 0 });
    expect(first).toEqual({ sheet: 0, slot: 0 });
    const last = { from: 0, period: 0, sheet: 0, slot: 0 };
    // 1 s segments: the next one is not a tile, the one at the interval (a little early, even) is.
    expect(placeTile(last, { programDate: 1000, period: 0 })).toBeNull();
    expect(placeTile(last, { programDate: INTERVAL_SECONDS * 1000 - 100, period: 0 })).toEqual({ sheet: 0, slot: 1 });
    expect(placeTile(last, { programDate: 500, period: 1 })).toEqual({ sheet: 1, slot: 0 });
    expect(placeTile(last, { programDate: 5000, period: 0 }, true)).toEqual({ sheet: 1, slot: 0 });
    const full = { ...last, slot: TILES_PER_SHEET - 1 };
    expect(placeTile(full, { programDate: 5000, period: 0 })).toEqual({ sheet: 1, slot: 0 });
  });

  it('writes WebVTT times, hours past 99 too', () => {
    expect(vttTime(0)).toBe('00:00:00.000');
    expect(vttTime(62.5)).toBe('00:01:02.500');
    expect(vttTime(3 * 3600 + 59.9994)).toBe('03:00:59.999');
    expect(vttTime(100 * 3600)).toBe('100:00:00.000');
  });

  it("renders a live window's VTT on the program-date timeline its header names, URIs with the session", () => {
    const tiles = [
      tile(10, 1_700_000_000_000, 0, 0),
      tile(12, 1_700_000_002_000, 0, 1),
      tile(14, 1_700_000_004_000, 1, 0),
    ];
    const { cues, programDate } = windowCues(tiles, () => size);
    const vtt = renderVtt(cues, { programDate, uri: (file) => `${file}?sid=s` });
    expect(vtt.split('\n')).toEqual([
      'WEBVTT',
      `X-PROGRAM-DATE-TIME=${new Date(1_700_000_000_000).toISOString()}`,
      '',
      '00:00:00.000 --> 00:00:02.000',
      'storyboard-0.jpg?sid=s#xywh=0,0,160,90',
      '',
      '00:00:02.000 --> 00:00:04.000',
      'storyboard-0.jpg?sid=s#xywh=160,0,160,90',
      '',
      '00:00:04.000 --> 00:00:06.000',
      'storyboard-1.jpg?sid=s#xywh=0,0,160,90',
      '',
    ]);
  });

  it("puts a VOD's cues on its media timeline, each until the next, the last until the end, tiles it lacks left out", () => {
    const tiles = [tile(3, 0), tile(5, 2000, 0, 1), tile(7, 4000, 0, 2)];
    const segments = [5, 6, 7, 8].map((msn) => ({ msn, duration: 1.5 }));
    expect(vodCues(tiles, segments, () => size)).toEqual([
      { start: 0, end: 3, sheet: 0, slot: 1, size },
      { start: 3, end: 6, sheet: 0, slot: 2, size },
    ]);
    expect(renderVtt([])).toBe('WEBVTT\n');
  });

  it("puts a clip's cues on its timeline from 0, 25 to a sheet, each until the next, the last until the end", () => {
    const times = Array.from({ length: 27 }, (_, i) => 0.04 + i * 2);
    const cues = clipCues(times, 55.5, size);
    expect(cues).toHaveLength(27);
    expect(cues[0]).toEqual({ start: 0, end: 2.04, sheet: 0, slot: 0, size });
    expect(cues[24]).toMatchObject({ start: 48.04, end: 50.04, sheet: 0, slot: 24 });
    expect(cues[25]).toMatchObject({ start: 50.04, sheet: 1, slot: 0 });
    expect(cues[26]).toMatchObject({ start: 52.04, end: 55.5, sheet: 1, slot: 1 });
  });

  it('names its files', () => {
    expect(parseSheetFile('storyboard-12.jpg')).toBe(12);
    expect(parseSheetFile('storyboard-x.jpg')).toBeNull();
    expect(isStoryboardFile('storyboard.vtt')).toBe(true);
    expect(isStoryboardFile('other.vtt')).toBe(false);
  });

  it("cuts a segment's first fragment (moof + mdat): the keyframe, not the rest", () => {
    const box = (type: string, payload: number) => {
      const data = Buffer.alloc(8 + payload);
      data.writeUInt32BE(8 + payload, 0);
      data.write(type, 4, 'latin1');
      return data;
    };
    const first = Buffer.concat([box('moof', 4), box('mdat', 10)]);
    const segment = Buffer.concat([first, box('moof', 4), box('mdat', 20)]);
    expect(firstFragment(segment)).toEqual(first);
  });
});
