import type { StreamInputSummary } from '@streamcloud/contract';
import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Loading } from '@/components/ui/loading';
import type { useStreams } from '@/data/streams/list';
import { STREAM_ERRORS } from '../utils/messages';
import { mergePages, NO_CHOICES, narrowingVisibleStreams, type StreamChoices } from '../utils/stream-list';
import type { ViewMode } from '../utils/view-mode';
import { StreamCollection } from './stream-collection';
import { StreamFiltersBar } from './stream-filters';

export interface FilteredStreamsProps {
  streams: ReturnType<typeof useStreams>;
  /** The stream created here last: listed first, marked new. */
  created: StreamInputSummary | null;
  mode: ViewMode;
}

/**
 * The search, the filters and the streams through them, with the count and 'More'. The search and the
 * filters are this component's state, so that a keystroke renders only it (not the page, the list query's
 * hook or the dialogs); it is applied in the keystroke's own render, not deferred: the filter is a memoised
 * pass of precomputed texts (a few ms over 10,000 streams; typing on searches only the last matches), only the rows in sight are rendered and a row
 * whose stream did not change is not rendered again, so the filtered rows are painted in the next frame.
 */
export function FilteredStreams({ streams, created, mode }: FilteredStreamsProps) {
  const [search, setSearch] = useState('');
  const [choices, setChoices] = useState<StreamChoices>(NO_CHOICES);
  const [visibleStreams] = useState(narrowingVisibleStreams);
  const pages = streams.data?.pages;
  const sorted = useMemo(() => mergePages((pages ?? []).map((page) => page.items)), [pages]);
  const items = useMemo(
    () => visibleStreams(sorted, { ...choices, search }, created),
    [visibleStreams, sorted, choices, search, created],
  );
  const total = pages?.at(-1)?.total ?? 0;
  return (
    <>
      <StreamFiltersBar search={search} onSearch={setSearch} choices={choices} onChoices={setChoices} />
      {streams.isPending ? (
        <Loading />
      ) : streams.isError ? (
        <p className="text-danger">{STREAM_ERRORS.loading}</p>
      ) : (
        <>
          <p className="small text-secondary" aria-live="polite" data-applied-search={search}>
            {`${sorted.length} of ${total} streams loaded`}
            {items.length !== sorted.length ? `, ${items.length} shown` : ''}
          </p>
          {items.length === 0 ? (
            <p className="text-secondary">{sorted.length === 0 ? 'There are no streams yet.' : 'No stream matches.'}</p>
          ) : (
            <StreamCollection items={items} mode={mode} />
          )}
          {sorted.length < total && (
            <div className="text-center my-3">
              <Button
                variant="outline-primary"
                onClick={() => void streams.fetchNextPage()}
                disabled={streams.isFetchingNextPage}
              >
                {streams.isFetchingNextPage ? 'Loading...' : 'More'}
              </Button>
            </div>
          )}
        </>
      )}
    </>
  );
}
