import type { StreamInput, StreamInputSummary } from '@streamcloud/contract';
import plusLgIcon from 'bootstrap-icons/icons/plus-lg.svg?raw';
import { useMemo, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Icon } from '@/components/ui/icon';
import { Loading } from '@/components/ui/loading';
import { lazyComponent, OnDemand } from '@/components/ui/on-demand';
import { PageShell } from '@/components/ui/page-shell';
import { useStreams } from '../api/get-streams';
import { STREAM_ERRORS } from '../utils/messages';
import { mergePages, NO_FILTERS, type StreamFilters, visibleStreams } from '../utils/stream-list';
import { useErrorNotice } from '../utils/use-error-notice';
import { readViewMode, type ViewMode, writeViewMode } from '../utils/view-mode';
import { ConnectionModal } from './connection-modal';
import { StreamCollection } from './stream-collection';
import { StreamFiltersBar } from './stream-filters';
import { ViewModeToggle } from './view-mode-toggle';

/** The stream form's code (react-hook-form, the contract's rules) is fetched when it first opens. */
const StreamModal = lazyComponent(() => import('./stream-modal'), 'StreamModal');

function summaryOf(stream: StreamInput): StreamInputSummary {
  const { id, ownerId, caption, format, status, access, outputMode, name, nodeId, createdAt } = stream;
  return { id, ownerId, caption, format, status, access, outputMode, name, nodeId, createdAt };
}

export interface StreamsScreenProps {
  /** ADMIN: the account whose streams are listed (/streams/account/{id}). */
  accountId?: string | null;
  /** Opens the create modal at once (/streams/create). */
  startCreating?: boolean;
  /** Called when the create modal opened by startCreating closes. */
  onCreateClosed?: () => void;
}

/** /streams and /streams/account/{id}: search, filters, list or grid, 200 streams at a time. */
export function StreamsScreen({ accountId = null, startCreating = false, onCreateClosed }: StreamsScreenProps) {
  const streams = useStreams(accountId);
  useErrorNotice(streams.error, STREAM_ERRORS.loading);
  // Applied in the keystroke's own render, not deferred: the filter is a memoised pass of precomputed texts
  // (a few ms over 10,000 streams) and only the rows in sight are rendered, so the filtered rows are painted
  // in the very next frame; a deferred render would come a frame or two later.
  const [filters, setFilters] = useState<StreamFilters>(NO_FILTERS);
  const [mode, setMode] = useState<ViewMode>(() => readViewMode());
  const [creating, setCreating] = useState(startCreating);
  const [created, setCreated] = useState<StreamInputSummary | null>(null);
  const [connection, setConnection] = useState<StreamInput | null>(null);

  const pages = streams.data?.pages;
  const sorted = useMemo(() => mergePages((pages ?? []).map((page) => page.items)), [pages]);
  const items = useMemo(() => visibleStreams(sorted, filters, created), [sorted, filters, created]);
  const total = pages?.at(-1)?.total ?? 0;

  const changeMode = (next: ViewMode) => {
    setMode(next);
    writeViewMode(next);
  };

  const closeCreate = () => {
    setCreating(false);
    onCreateClosed?.();
  };

  const title = accountId ? 'Account streams' : 'Streams';
  return (
    <PageShell
      title={title}
      actions={
        <div className="d-flex gap-2 align-items-center">
          <ViewModeToggle mode={mode} onChange={changeMode} />
          <Button variant="primary" onClick={() => setCreating(true)}>
            <Icon svg={plusLgIcon} className="me-1" />
            Create stream
          </Button>
        </div>
      }
    >
      {accountId && (
        <p className="text-secondary small">
          Account <span className="font-monospace">{accountId}</span>
        </p>
      )}
      <StreamFiltersBar filters={filters} onChange={setFilters} />
      {streams.isPending ? (
        <Loading />
      ) : streams.isError ? (
        <p className="text-danger">{STREAM_ERRORS.loading}</p>
      ) : (
        <>
          <p className="small text-secondary" aria-live="polite" data-applied-search={filters.search}>
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
      <OnDemand show={creating}>
        <StreamModal
          show={creating}
          mode="create"
          ownerId={accountId}
          onHide={closeCreate}
          onSaved={(stream) => {
            closeCreate();
            setCreated(summaryOf(stream));
            setConnection(stream);
          }}
        />
      </OnDemand>
      <ConnectionModal stream={connection} onHide={() => setConnection(null)} />
    </PageShell>
  );
}
