import { describe, expect, it } from 'vitest';
import { storyboardVtt } from '@/test/storyboard-fixtures';
import { parseStoryboard, storyboardTime, tileAt } from './storyboard';

const BASE = 'http://node.test/hls/out/storyboard.vtt?sid=s&token=t';
const LIVE = storyboardVtt([2, 4.5], { query: 'sid=s&token=t', programDate: '2026-11-29T14:00:00.000Z' });

describe('storyboard', () => {
  it('reads the tiles of a WebVTT, their sheets resolved against the VTT, and its program date', () => {
    const storyboard = parseStoryboard(LIVE, BASE);
    expect(storyboard.programDate).toBe(Date.parse('2026-11-29T14:00:00.000Z'));
    expect(storyboard.tiles).toEqual([
      { start: 0, end: 2, url: 'http://node.test/hls/out/storyboard-0.jpg?sid=s&token=t', x: 0, y: 0, w: 160, h: 90 },
      {
        start: 2,
        end: 4.5,
        url: 'http://node.test/hls/out/storyboard-0.jpg?sid=s&token=t',
        x: 160,
        y: 0,
        w: 160,
        h: 90,
      },
    ]);
    expect(parseStoryboard('WEBVTT\n\n01:00:00.000 --> 01:00:02.000\nnot a tile\n', BASE).tiles).toEqual([]);
  });

  it('finds the tile of a time, none before the first or long after the last', () => {
    const storyboard = parseStoryboard(LIVE, BASE);
    expect(tileAt(storyboard, 0)?.x).toBe(0);
    expect(tileAt(storyboard, 3)?.x).toBe(160);
    expect(tileAt(storyboard, 5)?.x).toBe(160);
    expect(tileAt(storyboard, -1)?.x).toBe(0);
    expect(tileAt(storyboard, -3)).toBeNull();
    expect(tileAt(storyboard, 60)).toBeNull();
  });

  it("maps a player's position to a live window's timeline by program date, a VOD's as is", () => {
    const live = parseStoryboard(LIVE, BASE);
    const playing = new Date(Date.parse('2026-11-29T14:00:10.000Z'));
    expect(storyboardTime(live, 95, { currentTime: 100, playing })).toBe(5);
    expect(storyboardTime(live, 95, { currentTime: 100, playing: null })).toBeNull();
    const vod = parseStoryboard(LIVE.replace(/X-PROGRAM-DATE-TIME=.*\n/, ''), BASE);
    expect(storyboardTime(vod, 3, { currentTime: 100, playing: null })).toBe(3);
  });
});
