import { type PointerEvent, type RefObject, useEffect, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { dateAt, type StoryboardTile, storyboardTime, tileAt } from '@/media/storyboard';
import { type StoryboardSource, useStoryboard } from './use-storyboard';

/** The played range, read this often (a live window grows at its end). */
const TICK_MS = 500;

interface Range {
  start: number;
  end: number;
  current: number;
}

const timeText = (date: Date | null, position: number) =>
  date
    ? date.toLocaleTimeString()
    : `${Math.floor(position / 60)}:${String(Math.floor(position % 60)).padStart(2, '0')}`;

/**
 * A seek bar over a rewind window (the preview) or a VOD: seeks the video, returns to live (`live`), and shows the
 * storyboard's thumbnail of the position pointed at or, from the keyboard, of the position chosen (its text says its
 * time).
 */
export function SeekBar({
  video,
  playback,
  live = true,
}: {
  video: RefObject<HTMLVideoElement | null>;
  playback: () => StoryboardSource | null;
  live?: boolean;
}) {
  const [range, setRange] = useState<Range | null>(null);
  const [pointed, setPointed] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  const storyboard = useStoryboard(playback);

  useEffect(() => {
    const timer = setInterval(() => {
      const element = video.current;
      const seekable = element?.seekable;
      if (!element || !seekable || seekable.length === 0) return setRange(null);
      setRange({ start: seekable.start(0), end: seekable.end(seekable.length - 1), current: element.currentTime });
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [video]);

  if (!range || range.end - range.start < 1) return null;
  const now = { currentTime: range.current, playing: playback()?.programDate?.() ?? null };
  const shown = pointed ?? (focused ? range.current : null);
  const at = shown === null || !storyboard ? null : storyboardTime(storyboard, shown, now);
  const tile = at === null || !storyboard ? null : tileAt(storyboard, at);
  const seek = (position: number) => {
    if (video.current) video.current.currentTime = position;
    setRange({ ...range, current: position });
  };
  const pointAt = (event: PointerEvent<HTMLInputElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const share = box.width > 0 ? Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)) : 0;
    setPointed(range.start + share * (range.end - range.start));
  };
  return (
    <div className="d-flex align-items-center gap-2 mt-2">
      <div className="position-relative flex-grow-1">
        {tile && shown !== null && (
          <Thumbnail
            tile={tile}
            left={(shown - range.start) / (range.end - range.start)}
            text={timeText(dateAt(shown, now), shown)}
          />
        )}
        <Form.Range
          aria-label="Seek"
          aria-valuetext={timeText(dateAt(range.current, now), range.current)}
          min={range.start}
          max={range.end}
          step={0.1}
          value={range.current}
          onChange={(event) => seek(Number(event.target.value))}
          onPointerMove={pointAt}
          onPointerEnter={pointAt}
          onPointerLeave={() => setPointed(null)}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
        />
      </div>
      {live && (
        <Button size="sm" variant="outline-secondary" onClick={() => seek(range.end)}>
          Live
        </Button>
      )}
    </div>
  );
}

/** A tile of a sprite sheet, above the seek bar at `left` (a share of its width). */
function Thumbnail({ tile, left, text }: { tile: StoryboardTile; left: number; text: string }) {
  return (
    <div
      className="position-absolute overflow-hidden border border-light bg-black"
      style={{
        width: tile.w,
        height: tile.h,
        bottom: '100%',
        left: `clamp(0px, calc(${(left * 100).toFixed(2)}% - ${tile.w / 2}px), calc(100% - ${tile.w}px))`,
      }}
    >
      <img
        src={tile.url}
        alt={`Thumbnail at ${text}`}
        className="position-absolute"
        style={{ left: -tile.x, top: -tile.y, maxWidth: 'none' }}
      />
    </div>
  );
}
