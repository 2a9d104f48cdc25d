import { Navigate, type RouteObject } from 'react-router';
import { AccountsScreen } from '@/features/accounts/components/accounts-screen';
import { AccountBillingScreen } from '@/features/billing/components/account-billing-screen';
import { StreamBillingScreen } from '@/features/billing/components/stream-billing-screen';
import { FallbacksScreen } from '@/features/fallbacks/components/fallbacks-screen';
import { MetricsDashboard } from '@/features/metrics/components/metrics-dashboard';
import { StreamMetricsScreen } from '@/features/metrics/components/stream-metrics-screen';
import { NodeGroupScreen } from '@/features/node-groups/components/node-group-screen';
import { NodeGroupsScreen } from '@/features/node-groups/components/node-groups-screen';
import { NodeScreen } from '@/features/nodes/components/node-screen';
import { NodesScreen } from '@/features/nodes/components/nodes-screen';
import { RecordingsScreen } from '@/features/recordings/components/recordings-screen';
import { RelaysScreen } from '@/features/relays/components/relays-screen';
import { StorageScreen } from '@/features/storages/components/storage-screen';
import { StoragesScreen } from '@/features/storages/components/storages-screen';
import { AccountStreamsRoute } from '@/features/streams/components/account-streams-route';
import { TranscodeScreen } from '@/features/transcode/components/transcode-screen';
import { DeliveryLog } from '@/features/webhooks/components/delivery-log';
import { WebhooksScreen } from '@/features/webhooks/components/webhooks-screen';
import { RequireAdmin, RequireAuth } from './guards';
import { AppLayout } from './layout/app-layout';
import { HOME } from './paths';
import { LoginRoute } from './routes/login';
import { StreamDashboardPage, StreamEditorPage } from './routes/stream-dashboard';
import { StreamsRoute } from './routes/streams';

/** The callbacks a recording's or relay's info view lists (the webhooks feature's log of the job). */
const jobCallbacks = (jobId: string) => <DeliveryLog filter={{ resourceId: jobId }} />;

export const appRoutes: RouteObject[] = [
  { path: '/login', element: <LoginRoute /> },
  {
    path: '/',
    element: (
      <RequireAuth>
        <AppLayout />
      </RequireAuth>
    ),
    children: [
      { index: true, element: <Navigate to={HOME} replace /> },
      { path: 'streams', element: <StreamsRoute /> },
      { path: 'streams/view/:id', element: <StreamDashboardPage /> },
      { path: 'streams/transcode/:id', element: <TranscodeScreen /> },
      { path: 'streams/fallback/:id', element: <FallbacksScreen /> },
      { path: 'streams/recording/:id', element: <RecordingsScreen callbacks={jobCallbacks} /> },
      { path: 'streams/relay/:id', element: <RelaysScreen callbacks={jobCallbacks} /> },
      {
        path: 'streams/account/:id',
        element: (
          <RequireAdmin title="Account streams">
            <AccountStreamsRoute />
          </RequireAdmin>
        ),
      },
      { path: 'streams/:mode', element: <StreamEditorPage /> },
      { path: 'streams/:mode/:id', element: <StreamEditorPage /> },
      {
        path: 'accounts',
        element: (
          <RequireAdmin title="Accounts">
            <AccountsScreen />
          </RequireAdmin>
        ),
      },
      {
        path: 'nodes',
        element: (
          <RequireAdmin title="Nodes">
            <NodesScreen />
          </RequireAdmin>
        ),
      },
      ...['nodes/:mode', 'nodes/:mode/:id'].map((path) => ({
        path,
        element: (
          <RequireAdmin title="Node">
            <NodeScreen />
          </RequireAdmin>
        ),
      })),
      // Storages belong to an account: a USER manages its own, an ADMIN every account's.
      // Node groups: a USER sees its own read-only, an ADMIN every group.
      { path: 'node-groups', element: <NodeGroupsScreen /> },
      { path: 'node-groups/:id', element: <NodeGroupScreen /> },
      { path: 'storages', element: <StoragesScreen /> },
      ...['storages/:mode', 'storages/:mode/:id'].map((path) => ({ path, element: <StorageScreen /> })),
      // Usage and metrics: a USER sees its own account's, an ADMIN any account's (the API decides).
      { path: 'streams/metrics/:id', element: <StreamMetricsScreen /> },
      { path: 'billing/stream/:id', element: <StreamBillingScreen /> },
      ...['billing/account', 'billing/account/:id'].map((path) => ({ path, element: <AccountBillingScreen /> })),
      { path: 'metrics', element: <MetricsDashboard /> },
      // Webhooks: a USER sees its own account's, an ADMIN also any account's or the platform's.
      { path: 'webhooks', element: <WebhooksScreen /> },
      {
        path: 'webhooks/account/:id',
        element: (
          <RequireAdmin title="Webhooks">
            <WebhooksScreen />
          </RequireAdmin>
        ),
      },
      { path: '*', element: <Navigate to={HOME} replace /> },
    ],
  },
];
