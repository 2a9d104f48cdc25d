import { fireEvent, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Playback } from '@/media/playback';
import { storyboardVtt } from '@/test/storyboard-fixtures';
import { SeekBar } from './seek-bar';

const VTT_URL = 'http://node.test/hls/out/storyboard.vtt?sid=s&token=t';
const VTT = storyboardVtt([2, 4], { query: 'sid=s&token=t', programDate: '2026-11-29T14:00:00.000Z' });

/** A video at `currentTime` of a seekable window from `start` to `end` (seconds of its timeline). */
function videoAt(currentTime: number, start: number, end: number): HTMLVideoElement {
  const element = document.createElement('video');
  Object.defineProperty(element, 'seekable', { value: { length: 1, start: () => start, end: () => end } });
  Object.defineProperty(element, 'currentTime', { value: currentTime, writable: true });
  return element;
}

afterEach(() => vi.unstubAllGlobals());

describe('SeekBar', () => {
  it('shows the storyboard tile of the position pointed at, its alt text the time, and seeks', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Object.assign(new Response(VTT, { status: 200 }), { url: VTT_URL })),
    );
    const video = createRef<HTMLVideoElement>() as { current: HTMLVideoElement | null };
    video.current = videoAt(4, 0, 4);
    // The frame at 4 s of the player's timeline is 14:00:04 (the storyboard's 4 s).
    const playback: Playback = {
      stats: async () => ({
        width: null,
        height: null,
        fps: null,
        bitrate: null,
        latencySeconds: null,
        framesDecoded: null,
      }),
      renditions: () => [],
      pick: () => {},
      close: () => {},
      programDate: () => new Date('2026-11-29T14:00:04.000Z'),
      storyboardUrl: () => VTT_URL,
    };
    const current = () => playback;
    render(<SeekBar video={video} playback={current} />);
    const seek = await screen.findByRole('slider', { name: 'Seek' });
    seek.getBoundingClientRect = () => ({ left: 0, width: 400, top: 0, height: 10 }) as DOMRect;
    // Pointing at 3 s of the window: the second tile.
    fireEvent.pointerMove(seek, { clientX: 300 });
    const thumbnail = await screen.findByRole('img', { name: /^Thumbnail at / });
    expect(thumbnail.getAttribute('src')).toBe('http://node.test/hls/out/storyboard-0.jpg?sid=s&token=t');
    expect(thumbnail.style.left).toBe('-160px');
    fireEvent.pointerLeave(seek);
    expect(screen.queryByRole('img', { name: /^Thumbnail at / })).toBeNull();
    // From the keyboard: the focused position's tile (the playing one, at 4 s: the second tile's end).
    fireEvent.focus(seek);
    expect(await screen.findByRole('img', { name: /^Thumbnail at / })).toBeInstanceOf(HTMLImageElement);
    fireEvent.change(seek, { target: { value: '1' } });
    expect(video.current.currentTime).toBe(1);
  });
});
