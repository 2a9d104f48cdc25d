import { describeTrack, streamRoutes, type TrackSource } from '@streamcloud/contract';
import { useRouteQuery } from '@/data/route-query';
import { DASHBOARD_POLL_MS } from '@/data/streams/dashboard-poll';
import { streamKeys } from '@/data/streams/keys';
import { DashboardCard, Detail, NONE } from './dashboard-card';

const LABELS: Record<TrackSource, string> = { incoming: 'Incoming tracks', outgoing: 'Outgoing tracks' };

function TrackList({ streamId, type }: { streamId: string; type: TrackSource }) {
  // What a node reported for the push (incoming) or what viewers get (outgoing); polled with the dashboard.
  const tracks =
    useRouteQuery(
      streamRoutes.streamInfo,
      streamKeys.tracks(streamId, type),
      { params: { streamId, type } },
      { refetchInterval: DASHBOARD_POLL_MS },
    ).data ?? [];
  return (
    <Detail label={LABELS[type]}>
      {tracks.length === 0 ? (
        NONE
      ) : (
        <ul className="list-unstyled mb-0" aria-label={LABELS[type]}>
          {tracks.map((track) => (
            <li key={track.idx}>{describeTrack(track)}</li>
          ))}
        </ul>
      )}
    </Detail>
  );
}

/**
 * What the node serving the stream reported last: the push's tracks and what its viewers get (the
 * transcoder's renditions, or the push itself).
 */
export function TracksCard({ streamId }: { streamId: string }) {
  return (
    <DashboardCard title="Tracks">
      <dl className="mb-0">
        <TrackList streamId={streamId} type="incoming" />
        <TrackList streamId={streamId} type="outgoing" />
      </dl>
    </DashboardCard>
  );
}
