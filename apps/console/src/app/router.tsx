import { Suspense } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { Loading } from '@/components/ui/loading';
import { HOME } from './paths';
import { RequireAuth } from './require-auth';
import {
  AccountAnalyticsScreen,
  AccountBillingScreen,
  AccountSettingsScreen,
  AccountStreamsRoute,
  AccountsScreen,
  AppLayout,
  AuditScreen,
  DeliveryLog,
  FallbacksScreen,
  LoginRoute,
  MetricsDashboard,
  NodeGroupScreen,
  NodeGroupsScreen,
  NodeScreen,
  NodesScreen,
  PlaybackKeysScreen,
  RecordingsScreen,
  RelaysScreen,
  RequireAdmin,
  StorageScreen,
  StoragesScreen,
  StreamBillingScreen,
  StreamDashboardPage,
  StreamEditorPage,
  StreamMetricsScreen,
  StreamsRoute,
  TranscodeScreen,
  WebhooksScreen,
} from './screens';

/** The callbacks a recording's or relay's info view lists (the webhooks feature's log of the job). */
const jobCallbacks = (jobId: string) => (
  <Suspense fallback={<Loading />}>
    <DeliveryLog filter={{ resourceId: jobId }} />
  </Suspense>
);

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
      // Viewer analytics (issue 37): a USER's own account, every account for an ADMIN (the API decides).
      { path: 'analytics', element: <AccountAnalyticsScreen /> },
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
      {
        path: 'audit',
        element: (
          <RequireAdmin title="Audit">
            <AuditScreen scope="all" />
          </RequireAdmin>
        ),
      },
      // Any account's own entries (its writes, an admin's as it, its sign-ins), from the account menu.
      { path: 'account/activity', element: <AuditScreen scope="own" /> },
      // The signed-in account's own settings (API keys), from the account menu.
      { path: 'account/settings', element: <AccountSettingsScreen /> },
      // The account's playback signing keys and the token test, from the account menu.
      { path: 'account/playback-keys', element: <PlaybackKeysScreen /> },
      { path: '*', element: <Navigate to={HOME} replace /> },
    ],
  },
];
