import { type ReactNode, Suspense } from 'react';
import { Loading } from '@/components/ui/loading';
import { lazyComponent, OnDemand } from '@/components/ui/on-demand';
import { ClipButton } from '@/features/clips/components/clip-dialog';
import { StreamClipsList } from '@/features/clips/components/stream-clips-list';
import { RecordButton } from '@/features/recordings/components/record-button';
import { StreamRecordingsList } from '@/features/recordings/components/stream-recordings-list';
import { StreamRelaysList } from '@/features/relays/components/stream-relays-list';
import { SnapshotPreviews } from '@/features/snapshots/components/snapshot-previews';
import type { StreamDashboardSlots } from '@/features/streams/components/stream-dashboard';
import { StreamDashboardRoute } from '@/features/streams/components/stream-dashboard-route';
import { DeliveryLog } from '@/features/webhooks/components/delivery-log';

// Charts (uPlot) and the snapshot settings form come when they are shown, after the dashboard itself.
const StreamMetricsPanel = lazyComponent(
  () => import('@/features/metrics/components/stream-metrics-panel'),
  'StreamMetricsPanel',
);
const StreamAnalyticsCard = lazyComponent(
  () => import('@/features/analytics/components/stream-analytics-card'),
  'StreamAnalyticsCard',
);
const SnapshotSettingsModal = lazyComponent(
  () => import('@/features/snapshots/components/snapshot-settings-modal'),
  'SnapshotSettingsModal',
);

/**
 * The cards features add about a stream: each feature's `components/stream-card.tsx` (its `StreamCard`), named by
 * the feature's folder and shown in the folders' order. A new card is that file alone, no list here to edit.
 */
const featureCards = import.meta.glob<{ StreamCard: (props: { streamId: string }) => ReactNode }>(
  '../../features/*/components/stream-card.tsx',
  { eager: true },
);
const cards: NonNullable<StreamDashboardSlots['cards']> = Object.fromEntries(
  Object.entries(featureCards).map(([path, { StreamCard }]) => [
    path.split('/').at(-3) as string,
    ({ streamId }: { streamId: string }) => <StreamCard streamId={streamId} />,
  ]),
);

/**
 * The stream dashboard with what the recordings, relays, snapshots, metrics, analytics, webhooks and clips features
 * add to it, and the other features' cards.
 */
export const slots: StreamDashboardSlots = {
  recordButton: ({ streamId, enabled }) => <RecordButton streamId={streamId} enabled={enabled} />,
  recordingsAndRelays: ({ streamId }) => (
    <>
      <StreamRecordingsList streamId={streamId} />
      <StreamRelaysList streamId={streamId} />
    </>
  ),
  snapshotSettings: (props) => (
    <OnDemand show={props.show}>
      <SnapshotSettingsModal {...props} />
    </OnDemand>
  ),
  snapshotPreviews: (props) => <SnapshotPreviews {...props} />,
  metricsPanel: ({ streamId, format }) => (
    <Suspense fallback={<Loading />}>
      <StreamMetricsPanel streamId={streamId} format={format} compact />
    </Suspense>
  ),
  analyticsCard: ({ streamId }) => (
    <Suspense fallback={<Loading />}>
      <StreamAnalyticsCard streamId={streamId} />
    </Suspense>
  ),
  callbacks: ({ streamId }) => <DeliveryLog filter={{ streamId }} />,
  clipButton: ({ streamId, position }) => <ClipButton streamId={streamId} position={position} />,
  clips: ({ streamId }) => <StreamClipsList streamId={streamId} />,
  cards,
};

export function StreamDashboardPage() {
  return <StreamDashboardRoute slots={slots} />;
}
