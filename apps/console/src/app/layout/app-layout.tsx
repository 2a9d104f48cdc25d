import { Suspense } from 'react';
import Container from 'react-bootstrap/Container';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Loading } from '@/components/ui/loading';
import { useWhoAmI } from '@/data/accounts/get-whoami';
import { useReplacePrerendered } from '@/lib/prerendered';
import { TopNav } from './top-nav';

/** Where an admin the security settings require to enrol two-factor sign-in is sent. */
export const ENROLMENT_PATH = '/account/settings';

/** The navigation bar at once; a screen's code may still be on its way (app/screens.ts). */
export function AppLayout() {
  // index.html's pre-rendered sign-in page is hidden here; it goes with the first screen drawn.
  useReplacePrerendered();
  const required = useWhoAmI({ select: (me) => me.twoFactorEnrolmentRequired }).data === true;
  const { pathname } = useLocation();
  if (required && pathname !== ENROLMENT_PATH) return <Navigate to={ENROLMENT_PATH} replace />;
  return (
    <>
      <TopNav />
      <Container as="main" fluid="lg">
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </Container>
    </>
  );
}
