import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { memo, type RefObject, useLayoutEffect, useRef, useState } from 'react';
import type { ListedStream } from '../utils/stream-list';
import type { ViewMode } from '../utils/view-mode';
import { StreamCard, StreamRow } from './stream-item';

const ROW_HEIGHT = 72;
const GRID_GAP = 16;
const CARD_ROW_HEIGHT = 164 + GRID_GAP;
const CARD_MIN_WIDTH = 260;
/** Rows rendered beyond the window on each side: each is made on every keystroke that changes the rows. */
const OVERSCAN = 3;

/** Where the element starts on the page, and how wide it is; followed on resize. */
function useLayoutBox(ref: RefObject<HTMLElement | null>) {
  const [box, setBox] = useState({ top: 0, width: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const rect = element.getBoundingClientRect();
      const top = rect.top + window.scrollY;
      setBox((previous) =>
        previous.top === top && previous.width === rect.width ? previous : { top, width: rect.width },
      );
    };
    measure();
    window.addEventListener('resize', measure);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(element);
    observer?.observe(document.body);
    return () => {
      window.removeEventListener('resize', measure);
      observer?.disconnect();
    };
  }, [ref]);
  return box;
}

interface CollectionProps {
  items: readonly ListedStream[];
}

/**
 * The list view: only the rows in sight (and a few around them) are in the page. Rows are keyed by their
 * place in the list, not by stream: a search keystroke changes which streams are at the top, and React then
 * updates the texts and attributes of the rows that are there rather than removing them all and making new
 * ones (half the time of a keystroke with 10,000 streams went into that).
 */
function VirtualList({ items }: CollectionProps) {
  const ref = useRef<HTMLUListElement>(null);
  const { top } = useLayoutBox(ref);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    scrollMargin: top,
  });
  const margin = virtualizer.options.scrollMargin;
  return (
    <ul
      ref={ref}
      aria-label="Streams"
      className="list-unstyled mb-0 border-top position-relative"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => {
        const item = items[row.index];
        if (!item) return null;
        return (
          <li
            key={row.index}
            className="position-absolute start-0 w-100"
            style={{ top: 0, height: ROW_HEIGHT, transform: `translateY(${row.start - margin}px)` }}
          >
            <StreamRow item={item} />
          </li>
        );
      })}
    </ul>
  );
}

export function gridColumns(width: number): number {
  return Math.max(1, Math.min(4, Math.floor(width / CARD_MIN_WIDTH)));
}

/** The grid view: rows of cards; only the rows in sight are in the page, keyed by place as the list's. */
function VirtualGrid({ items }: CollectionProps) {
  const ref = useRef<HTMLUListElement>(null);
  const { top, width } = useLayoutBox(ref);
  const columns = gridColumns(width);
  const rows = Math.ceil(items.length / columns);
  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => CARD_ROW_HEIGHT,
    overscan: 3,
    scrollMargin: top,
  });
  const margin = virtualizer.options.scrollMargin;
  const share = 100 / columns;
  return (
    <ul
      ref={ref}
      aria-label="Streams"
      className="list-unstyled mb-0 position-relative"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().flatMap((row) =>
        items.slice(row.index * columns, row.index * columns + columns).map((item, column) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: keyed by place on purpose, as the list's rows (see VirtualList)
            key={row.index * columns + column}
            className="position-absolute"
            style={{
              top: 0,
              left: `${column * share}%`,
              width: `${share}%`,
              height: CARD_ROW_HEIGHT,
              padding: `0 ${GRID_GAP / 2}px ${GRID_GAP}px`,
              transform: `translateY(${row.start - margin}px)`,
            }}
          >
            <StreamCard item={item} />
          </li>
        )),
      )}
    </ul>
  );
}

/** The streams as rows or as cards; rendered again only when the listed streams or the view change. */
export const StreamCollection = memo(function StreamCollection({ items, mode }: CollectionProps & { mode: ViewMode }) {
  return mode === 'grid' ? <VirtualGrid items={items} /> : <VirtualList items={items} />;
});
