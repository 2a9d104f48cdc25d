import { type StreamInput, type StreamInputSummary, streamSummaryOf } from '@streamcloud/contract';
import plusLgIcon from 'bootstrap-icons/icons/plus-lg.svg?raw';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Icon } from '@/components/ui/icon';
import { lazyComponent, OnDemand } from '@/components/ui/on-demand';
import { PageShell } from '@/components/ui/page-shell';
import { useStreams } from '@/data/streams/list';
import { STREAM_ERRORS } from '../utils/messages';
import { useErrorNotice } from '../utils/use-error-notice';
import { readViewMode, type ViewMode, writeViewMode } from '../utils/view-mode';
import { ConnectionModal } from './connection-modal';
import { FilteredStreams } from './filtered-streams';
import { ViewModeToggle } from './view-mode-toggle';

/** The stream form's code (react-hook-form, the contract's rules) is fetched when it first opens. */
const StreamModal = lazyComponent(() => import('./stream-modal'), 'StreamModal');

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
  const [mode, setMode] = useState<ViewMode>(() => readViewMode());
  const [creating, setCreating] = useState(startCreating);
  const [created, setCreated] = useState<StreamInputSummary | null>(null);
  const [connection, setConnection] = useState<StreamInput | null>(null);

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
      <FilteredStreams streams={streams} created={created} mode={mode} />
      <OnDemand show={creating}>
        <StreamModal
          show={creating}
          mode="create"
          ownerId={accountId}
          onHide={closeCreate}
          onSaved={(stream) => {
            closeCreate();
            setCreated(streamSummaryOf(stream));
            setConnection(stream);
          }}
        />
      </OnDemand>
      <ConnectionModal stream={connection} onHide={() => setConnection(null)} />
    </PageShell>
  );
}
