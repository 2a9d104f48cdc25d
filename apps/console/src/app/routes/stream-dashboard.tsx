import { StreamMetricsPanel } from '@/features/metrics/components/stream-metrics-panel';
import { RecordButton } from '@/features/recordings/components/record-button';
import { StreamRecordingsList } from '@/features/recordings/components/stream-recordings-list';
import { StreamRelaysList } from '@/features/relays/components/stream-relays-list';
import { SnapshotPreviews } from '@/features/snapshots/components/snapshot-previews';
import { SnapshotSettingsModal } from '@/features/snapshots/components/snapshot-settings-modal';
import type { StreamDashboardSlots } from '@/features/streams/components/stream-dashboard';
import { StreamDashboardRoute } from '@/features/streams/components/stream-dashboard-route';
import { StreamEditorRoute } from '@/features/streams/components/stream-editor-route';
import { DeliveryLog } from '@/features/webhooks/components/delivery-log';

/** The stream dashboard with what the recordings, relays, snapshots, metrics and webhooks features add to it. */
const slots: StreamDashboardSlots = {
  recordButton: ({ streamId, enabled }) => <RecordButton streamId={streamId} enabled={enabled} />,
  recordingsAndRelays: ({ streamId }) => (
    <>
      <StreamRecordingsList streamId={streamId} />
      <StreamRelaysList streamId={streamId} />
    </>
  ),
  snapshotSettings: (props) => <SnapshotSettingsModal {...props} />,
  snapshotPreviews: (props) => <SnapshotPreviews {...props} />,
  metricsPanel: ({ streamId }) => <StreamMetricsPanel streamId={streamId} compact />,
  callbacks: ({ streamId }) => <DeliveryLog filter={{ streamId }} />,
};

export function StreamDashboardPage() {
  return <StreamDashboardRoute slots={slots} />;
}

/** /streams/{mode}/{id}: the stream modal over the list or over this same dashboard. */
export function StreamEditorPage() {
  return <StreamEditorRoute slots={slots} />;
}
