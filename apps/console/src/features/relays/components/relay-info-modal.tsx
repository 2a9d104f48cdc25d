import { describeSelector, RELAY_FORMAT_LABELS, type Relay, relayRoutes } from '@streamcloud/contract';
import { InfoRow, NONE, orNone } from '@/components/stream-jobs/info-row';
import { JobInfoList } from '@/components/stream-jobs/job-info-list';
import { JobInfoModal, type JobInfoModalOwnProps } from '@/components/stream-jobs/job-info-modal';
import { JobStream } from '@/components/stream-jobs/job-stream';
import { Loading } from '@/components/ui/loading';
import { relayKeys } from '@/data/relays/keys';
import { useRouteQuery } from '@/data/route-query';
import { useStream } from '@/data/streams/get-stream';
import { MASKED_KEY } from '../utils/messages';
import { RELAYS } from '../utils/relays-feature';
import { RelayStateBadge } from './relay-state-badge';

/** Where the relay sends the stream, a row a setting of its format; the RTMP key only ever masked. */
function DestinationRows({ relay }: { relay: Relay }) {
  switch (relay.format) {
    case 'RTMP':
      return (
        <>
          <InfoRow label="Server">
            <code>{relay.output.server}</code>
          </InfoRow>
          <InfoRow label="Stream key">{relay.output.keySet ? MASKED_KEY : NONE}</InfoRow>
        </>
      );
    case 'CMAF':
      return (
        <>
          <InfoRow label="Endpoint">
            <code>{relay.output.endpoint}</code>
          </InfoRow>
          <InfoRow label="Unified Streaming Platform">{relay.output.unifiedStreamingPlatform ? 'Yes' : 'No'}</InfoRow>
          <InfoRow label="Event ID">{orNone(relay.output.eventID)}</InfoRow>
          <InfoRow label="Video timescale">{orNone(relay.output.videoTimescale)}</InfoRow>
          <InfoRow label="Audio timescale">{orNone(relay.output.audioTimescale)}</InfoRow>
          <InfoRow label="Meta timescale">{orNone(relay.output.metaTimescale)}</InfoRow>
        </>
      );
    case 'UDPTS':
      return (
        <>
          <InfoRow label="IP address">{relay.output.ipAddress}</InfoRow>
          <InfoRow label="Port">{relay.output.port}</InfoRow>
        </>
      );
  }
}

/** Loads the relay, then its stream. */
function RelayInfo({ id }: { id: string }) {
  const relay = useRouteQuery(relayRoutes.get, relayKeys.detail(id), { params: { id } });
  const stream = useStream(relay.data?.streamId);
  if (relay.isPending) return <Loading />;
  if (relay.isError) return <p className="text-danger mb-0">The relay could not be loaded.</p>;
  const data = relay.data;
  return (
    <JobInfoList
      job={data}
      idLabel="Relay ID"
      badge={<RelayStateBadge state={data.state} />}
      runningState={RELAYS.runningState}
      stream={<JobStream streamId={data.streamId} stream={stream} />}
      destination={
        <>
          <InfoRow label="Format">{RELAY_FORMAT_LABELS[data.format]}</InfoRow>
          <DestinationRows relay={data} />
        </>
      }
      capture={
        <>
          {data.capture.source}:{' '}
          {data.capture.tracks.map((selector) => `${selector.type} ${describeSelector(selector)}`).join('; ')}
        </>
      }
    />
  );
}

export function RelayInfoModal(props: JobInfoModalOwnProps) {
  return (
    <JobInfoModal {...props} titleId="relay-info-title" title="Relay">
      {(shown) => <RelayInfo id={shown} />}
    </JobInfoModal>
  );
}
