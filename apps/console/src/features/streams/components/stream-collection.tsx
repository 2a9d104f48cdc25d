import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { memo, type ReactNode, type RefObject, useLayoutEffect, useRef, useState } from 'react';
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

/** How a view lays the streams out: in rows of `columns(width)` items of one height. */
interface Layout {
  columns: (width: number) => number;
  rowHeight: number;
  /** Around each item: half of it on either side, all of it below. */
  gap: number;
  className: string;
  render: (item: ListedStream) => ReactNode;
}

export function gridColumns(width: number): number {
  return Math.max(1, Math.min(4, Math.floor(width / CARD_MIN_WIDTH)));
}

const LIST: Layout = {
  columns: () => 1,
  rowHeight: ROW_HEIGHT,
  gap: 0,
  className: 'list-unstyled mb-0 border-top position-relative',
  render: (item) => <StreamRow item={item} />,
};

const GRID: Layout = {
  columns: gridColumns,
  rowHeight: CARD_ROW_HEIGHT,
  gap: GRID_GAP,
  className: 'list-unstyled mb-0 position-relative',
  render: (item) => <StreamCard item={item} />,
};

/**
 * The streams in rows (one stream a row in the list view, a row of cards in the grid view): only the rows in
 * sight (and a few around them) are in the page. Items are keyed by their place in the list, not by stream: a
 * search keystroke changes which streams are at the top, and React then updates the texts and attributes of
 * the items that are there rather than removing them all and making new ones (half the time of a keystroke
 * with 10,000 streams went into that).
 */
function VirtualCollection({ items, layout }: CollectionProps & { layout: Layout }) {
  const ref = useRef<HTMLUListElement>(null);
  const { top, width } = useLayoutBox(ref);
  const columns = layout.columns(width);
  const virtualizer = useWindowVirtualizer({
    count: Math.ceil(items.length / columns),
    estimateSize: () => layout.rowHeight,
    overscan: OVERSCAN,
    scrollMargin: top,
  });
  const margin = virtualizer.options.scrollMargin;
  const share = 100 / columns;
  return (
    <ul ref={ref} aria-label="Streams" className={layout.className} style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().flatMap((row) =>
        items.slice(row.index * columns, row.index * columns + columns).map((item, column) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: keyed by place on purpose (see above)
            key={row.index * columns + column}
            className="position-absolute"
            style={{
              top: 0,
              left: `${column * share}%`,
              width: `${share}%`,
              height: layout.rowHeight,
              padding: `0 ${layout.gap / 2}px ${layout.gap}px`,
              transform: `translateY(${row.start - margin}px)`,
            }}
          >
            {layout.render(item)}
          </li>
        )),
      )}
    </ul>
  );
}

/**
 * The streams as rows or as cards; rendered again only when the listed streams or the view change. A view
 * has its own virtualizer (keyed by the view): the sizes one measured are not the other's.
 */
export const StreamCollection = memo(function StreamCollection({ items, mode }: CollectionProps & { mode: ViewMode }) {
  return <VirtualCollection key={mode} items={items} layout={mode === 'grid' ? GRID : LIST} />;
});
