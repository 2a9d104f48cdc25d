import { lazyComponent as screen } from '@/components/ui/on-demand';

// Every screen is fetched the first time it is shown: each is its own chunk with what only it uses (forms,
// charts, the billing print), so the first load carries the shell alone. `preload()` fetches one ahead.
// The signed-in frame (navigation bar, user menu: react-bootstrap's navbar, dropdown and offcanvas) and the
// admin guard (the account, so the API's contract) too: the sign-in page needs neither.
export const AppLayout = screen(() => import('./layout/app-layout'), 'AppLayout');
export const RequireAdmin = screen(() => import('./guards'), 'RequireAdmin');
export const LoginRoute = screen(() => import('./routes/login'), 'LoginRoute');
export const StreamsRoute = screen(() => import('./routes/streams'), 'StreamsRoute');
export const StreamDashboardPage = screen(() => import('./routes/stream-dashboard'), 'StreamDashboardPage');
export const StreamEditorPage = screen(() => import('./routes/stream-editor'), 'StreamEditorPage');
export const AccountStreamsRoute = screen(
  () => import('@/features/streams/components/account-streams-route'),
  'AccountStreamsRoute',
);
export const TranscodeScreen = screen(
  () => import('@/features/transcode/components/transcode-screen'),
  'TranscodeScreen',
);
export const FallbacksScreen = screen(
  () => import('@/features/fallbacks/components/fallbacks-screen'),
  'FallbacksScreen',
);
export const RecordingsScreen = screen(
  () => import('@/features/recordings/components/recordings-screen'),
  'RecordingsScreen',
);
export const RelaysScreen = screen(() => import('@/features/relays/components/relays-screen'), 'RelaysScreen');
export const AccountsScreen = screen(() => import('@/features/accounts/components/accounts-screen'), 'AccountsScreen');
export const NodesScreen = screen(() => import('@/features/nodes/components/nodes-screen'), 'NodesScreen');
export const NodeScreen = screen(() => import('@/features/nodes/components/node-screen'), 'NodeScreen');
export const NodeGroupsScreen = screen(
  () => import('@/features/node-groups/components/node-groups-screen'),
  'NodeGroupsScreen',
);
export const NodeGroupScreen = screen(
  () => import('@/features/node-groups/components/node-group-screen'),
  'NodeGroupScreen',
);
export const StoragesScreen = screen(() => import('@/features/storages/components/storages-screen'), 'StoragesScreen');
export const StorageScreen = screen(() => import('@/features/storages/components/storage-screen'), 'StorageScreen');
export const StreamMetricsScreen = screen(
  () => import('@/features/metrics/components/stream-metrics-screen'),
  'StreamMetricsScreen',
);
export const AccountAnalyticsScreen = screen(
  () => import('@/features/analytics/components/account-analytics-screen'),
  'AccountAnalyticsScreen',
);
export const MetricsDashboard = screen(
  () => import('@/features/metrics/components/metrics-dashboard'),
  'MetricsDashboard',
);
export const StreamBillingScreen = screen(
  () => import('@/features/billing/components/stream-billing-screen'),
  'StreamBillingScreen',
);
export const AccountBillingScreen = screen(
  () => import('@/features/billing/components/account-billing-screen'),
  'AccountBillingScreen',
);
export const AccountSettingsScreen = screen(
  () => import('@/features/account-settings/components/account-settings-screen'),
  'AccountSettingsScreen',
);
export const PlaybackKeysScreen = screen(
  () => import('@/features/playback-keys/components/playback-keys-screen'),
  'PlaybackKeysScreen',
);
export const AuditScreen = screen(() => import('@/features/audit/components/audit-screen'), 'AuditScreen');
export const WebhooksScreen = screen(() => import('@/features/webhooks/components/webhooks-screen'), 'WebhooksScreen');
/** The callbacks of a recording or relay, fetched when its info view first shows them. */
export const DeliveryLog = screen(() => import('@/features/webhooks/components/delivery-log'), 'DeliveryLog');
