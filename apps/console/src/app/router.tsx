import { Navigate, type RouteObject } from 'react-router';
import { AccountsScreen } from '@/features/accounts/components/accounts-screen';
import { NodeScreen } from '@/features/nodes/components/node-screen';
import { NodesScreen } from '@/features/nodes/components/nodes-screen';
import { RequireAdmin, RequireAuth } from './guards';
import { AppLayout } from './layout/app-layout';
import { HOME } from './paths';
import { LoginRoute } from './routes/login';
import { PendingScreen } from './routes/pending';
import { StreamsRoute } from './routes/streams';

interface PendingRoute {
  path: string;
  title: string;
  adminOnly?: boolean;
}

/** Routes of the spec whose screens later issues build. */
export const PENDING_ROUTES: readonly PendingRoute[] = [
  { path: 'streams/view/:id', title: 'Stream dashboard' },
  { path: 'streams/transcode/:id', title: 'Transcode editor' },
  { path: 'streams/fallback/:id', title: 'Fallbacks' },
  { path: 'streams/relay/:id', title: 'Relays' },
  { path: 'streams/recording/:id', title: 'Recordings' },
  { path: 'streams/metrics/:id', title: 'Stream metrics' },
  { path: 'streams/account/:id', title: 'Account streams' },
  { path: 'streams/:mode', title: 'Stream editor' },
  { path: 'streams/:mode/:id', title: 'Stream editor' },
  { path: 'billing/stream/:id', title: 'Stream billing' },
  { path: 'billing/account', title: 'Account billing' },
  { path: 'billing/account/:id', title: 'Account billing' },
  { path: 'node-groups', title: 'Node groups' },
  { path: 'node-groups/:id', title: 'Node group' },
  { path: 'storages', title: 'Storages', adminOnly: true },
  { path: 'storages/:mode', title: 'Storage', adminOnly: true },
  { path: 'storages/:mode/:id', title: 'Storage', adminOnly: true },
  { path: 'metrics', title: 'Metrics' },
];

function pendingRoute({ path, title, adminOnly }: PendingRoute): RouteObject {
  const screen = <PendingScreen title={title} />;
  return { path, element: adminOnly ? <RequireAdmin title={title}>{screen}</RequireAdmin> : screen };
}

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
      ...PENDING_ROUTES.map(pendingRoute),
      { path: '*', element: <Navigate to={HOME} replace /> },
    ],
  },
];
