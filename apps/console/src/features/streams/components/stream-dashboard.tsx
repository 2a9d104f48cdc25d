import { messageOr } from '@streamcloud/api-client';
import { type InputFormat, type StreamStatus, streamRoutes } from '@streamcloud/contract';
import { Fragment, type ReactNode, useState } from 'react';
import Button from 'react-bootstrap/Button';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Loading } from '@/components/ui/loading';
import { useNotify } from '@/components/ui/notifications';
import { lazyComponent, OnDemand } from '@/components/ui/on-demand';
import { PageShell } from '@/components/ui/page-shell';
import { useRouteMutation } from '@/data/route-mutation';
import { useRouteQuery } from '@/data/route-query';
import { DASHBOARD_POLL_MS, pollDashboardWhileFound } from '@/data/streams/dashboard-poll';
import { useStream } from '@/data/streams/get-stream';
import { streamKeys } from '@/data/streams/keys';
import { useUpdateStream } from '@/data/streams/update-stream';
import { dashboardActions } from '../utils/dashboard-actions';
import { DELETE_STREAM_QUESTION, STREAM_ERRORS } from '../utils/messages';
import { useErrorNotice } from '../utils/use-error-notice';
import { CaptionEditor } from './caption-editor';
import { DashboardCard } from './dashboard-card';
import { DashboardToolbar } from './dashboard-toolbar';
import { GslbDialog } from './gslb-dialog';
import { InputCard } from './input-card';
import { MessagesCard } from './messages-card';
import { PreviewCard } from './preview-card';
import { StreamCallout } from './stream-callout';
import { StreamStatusBadge } from './stream-status-badge';
import { StreamerCard } from './streamer-card';
import { TracksCard } from './tracks-card';
import { ViewersCard } from './viewers-card';
import { VodsCard } from './vods-card';

/** The stream form's code (react-hook-form, the contract's rules) is fetched when it first opens. */
const StreamModal = lazyComponent(() => import('./stream-modal'), 'StreamModal');
/** The browser studio (devices, WHIP) is fetched when "Go live" is first pressed. */
const StudioDialog = lazyComponent(() => import('./studio-dialog'), 'StudioDialog');

/** How often the stream is read while the studio is on air and the stream not yet live. */
const STUDIO_POLL_MS = 500;

type Dialog = 'update' | 'delete' | 'gslb' | 'snapshots' | 'studio' | null;

/**
 * What other features show on the dashboard. A feature never imports a sibling, so the app layer
 * (app/routes/stream-dashboard.tsx) fills these in.
 */
export interface StreamDashboardSlots {
  /** The recording button; enabled only in Ingestion, never in Error. */
  recordButton: (props: { streamId: string; enabled: boolean }) => ReactNode;
  /** The body of the Recordings and Relays card (hidden in Error). */
  recordingsAndRelays: (props: { streamId: string }) => ReactNode;
  /** The snapshot settings modal, opened by the Snapshots button. */
  snapshotSettings: (props: { streamId: string; show: boolean; onHide: () => void }) => ReactNode;
  /** The incoming and outgoing previews, shown only in Ingestion or Fallback. */
  snapshotPreviews: (props: { streamId: string; status: StreamStatus }) => ReactNode;
  /** The compact metrics panel (it draws its own card). */
  metricsPanel: (props: { streamId: string; format: InputFormat }) => ReactNode;
  /** The viewers' experience from the players' beacons (it draws its own card). */
  analyticsCard: (props: { streamId: string }) => ReactNode;
  /** The body of the Callbacks card: the webhooks sent for the stream and its outputs, recordings and relays. */
  callbacks: (props: { streamId: string }) => ReactNode;
  /** The preview player's "Create clip" (marks in and out on the position being played). */
  clipButton?: (props: { streamId: string; position: () => Date | null }) => ReactNode;
  /** The body of the Clips card. */
  clips?: (props: { streamId: string }) => ReactNode;
  /**
   * More cards about the stream, each drawing its own card, by name (the React key), shown in that order under
   * the stream's own cards: a feature adds one here without a slot of its own.
   */
  cards?: Record<string, (props: { streamId: string }) => ReactNode>;
}

export interface StreamDashboardProps {
  id: string;
  slots: StreamDashboardSlots;
  /** Opens the update modal once the stream is loaded (/streams/update/{id}). */
  startUpdating?: boolean;
  onUpdateClosed?: () => void;
}

/** /streams/view/{id}: everything about one stream, polled every 5 seconds while the page is shown. */
export function StreamDashboard({ id, slots, startUpdating = false, onUpdateClosed }: StreamDashboardProps) {
  const navigate = useNavigate();
  const notify = useNotify();
  // While the studio's push is on air and the stream not yet in Ingestion, its status is read often:
  // the dashboard's 5 s poll would show the stream live seconds after the studio.
  const [studioLive, setStudioLive] = useState(false);
  const query = useStream(id, {
    refetchInterval: (read) =>
      studioLive && read.state.data?.status !== 'Ingestion' ? STUDIO_POLL_MS : pollDashboardWhileFound(read),
  });
  const stream = query.data;
  useErrorNotice(query.error, STREAM_ERRORS.loading);
  // The GSLB ingress endpoint, asked for only when the stream has one; a failure shows nothing.
  const ingress = useRouteQuery(
    streamRoutes.getIngress,
    streamKeys.ingress(id),
    { params: { streamId: id } },
    { refetchInterval: DASHBOARD_POLL_MS, retry: false, enabled: stream?.gslb ?? false },
  );
  const update = useUpdateStream();
  const remove = useRouteMutation(streamRoutes.delete, {
    toRequest: (streamId: string) => ({ params: { id: streamId } }),
    removes: (_nothing, streamId) => [
      streamKeys.detail(streamId),
      streamKeys.outputs(streamId),
      streamKeys.ingress(streamId),
    ],
    invalidates: () => [streamKeys.lists()],
  });
  const [dialog, setDialog] = useState<Dialog>(startUpdating ? 'update' : null);
  const actions = dashboardActions(stream);

  const close = () => {
    if (dialog === 'update') onUpdateClosed?.();
    setDialog(null);
  };

  const saveCaption = (caption: string) =>
    update.mutate({ id, body: { caption } }, { onError: (error) => notify(messageOr(error, STREAM_ERRORS.caption)) });

  const stop = () =>
    update.mutate(
      { id, body: { state: 'Idle' } },
      { onError: (error) => notify(messageOr(error, STREAM_ERRORS.stopping)) },
    );

  const confirmDelete = () => {
    setDialog(null);
    remove.mutate(id, {
      onSuccess: () => navigate('/streams'),
      // Deletion errors are only logged.
      onError: (error) => console.error('Stream deletion failed', error),
    });
  };

  const status = stream?.status;
  const showsSnapshots = status === 'Ingestion' || status === 'Fallback';

  return (
    <PageShell
      title="Stream dashboard"
      actions={
        <DashboardToolbar
          streamId={id}
          actions={actions}
          stopping={update.isPending && update.variables?.body.state === 'Idle'}
          onStop={stop}
          onSnapshots={() => setDialog('snapshots')}
          onGslb={() => setDialog('gslb')}
          onUpdate={() => setDialog('update')}
          onDelete={() => setDialog('delete')}
        />
      }
    >
      {!stream ? (
        query.isError ? (
          <p className="text-danger">{STREAM_ERRORS.loading}</p>
        ) : (
          <Loading />
        )
      ) : (
        <>
          <div className="d-flex flex-wrap align-items-start gap-3 mb-3">
            <div className="flex-grow-1" style={{ minWidth: 0 }}>
              <CaptionEditor caption={stream.caption} placeholder={stream.id} onSave={saveCaption} />
              {stream.caption && <div className="small text-secondary font-monospace">{stream.id}</div>}
              <div className="mt-1 d-flex flex-wrap align-items-center gap-2">
                <span>
                  Status: <strong data-testid="stream-status">{stream.status}</strong>
                </span>
                <StreamStatusBadge status={stream.status} />
                <span className="text-secondary small">{stream.format}</span>
              </div>
            </div>
            {stream.format === 'WebRTC' && (
              <Button variant="success" onClick={() => setDialog('studio')}>
                Go live
              </Button>
            )}
            {slots.recordButton({ streamId: stream.id, enabled: actions.record })}
          </div>

          <StreamCallout status={stream.status} />

          {showsSnapshots && (
            <PreviewCard
              streamId={stream.id}
              {...(slots.clipButton
                ? { extra: (position) => slots.clipButton?.({ streamId: stream.id, position }) }
                : {})}
            />
          )}

          {showsSnapshots && (
            <DashboardCard title="Snapshots">
              {slots.snapshotPreviews({ streamId: stream.id, status: stream.status })}
            </DashboardCard>
          )}

          <div className="row">
            <div className="col-lg-6">
              <StreamerCard stream={stream} />
              <InputCard stream={stream} ingress={ingress.data} />
              <TracksCard streamId={stream.id} />
              <MessagesCard messages={stream.statusMessages} />
              {Object.entries(slots.cards ?? {}).map(([name, card]) => (
                <Fragment key={name}>{card({ streamId: stream.id })}</Fragment>
              ))}
            </div>
            <div className="col-lg-6">
              <ViewersCard streamId={stream.id} />
              {stream.status !== 'Error' && (
                <DashboardCard title="Recordings and Relays">
                  {slots.recordingsAndRelays({ streamId: stream.id })}
                </DashboardCard>
              )}
              {slots.clips && <DashboardCard title="Clips">{slots.clips({ streamId: stream.id })}</DashboardCard>}
              <VodsCard streamId={stream.id} />
              {slots.metricsPanel({ streamId: stream.id, format: stream.format })}
            </div>
          </div>
          {slots.analyticsCard({ streamId: stream.id })}
          <DashboardCard title="Callbacks">{slots.callbacks({ streamId: stream.id })}</DashboardCard>
        </>
      )}

      {stream && (
        <OnDemand show={dialog === 'studio'}>
          <StudioDialog show={dialog === 'studio'} stream={stream} onHide={close} onLive={setStudioLive} />
        </OnDemand>
      )}
      {stream && (
        <OnDemand show={dialog === 'update'}>
          <StreamModal show={dialog === 'update'} mode="update" stream={stream} onHide={close} onSaved={close} />
        </OnDemand>
      )}
      <ConfirmDialog
        show={dialog === 'delete'}
        message={DELETE_STREAM_QUESTION}
        onConfirm={confirmDelete}
        onCancel={close}
      />
      <GslbDialog show={dialog === 'gslb'} streamId={id} endpoint={ingress.data} onHide={close} />
      {slots.snapshotSettings({ streamId: id, show: dialog === 'snapshots', onHide: close })}
    </PageShell>
  );
}
