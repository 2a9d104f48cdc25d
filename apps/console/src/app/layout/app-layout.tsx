import { Suspense } from 'react';
import Container from 'react-bootstrap/Container';
import { Outlet } from 'react-router';
import { Loading } from '@/components/ui/loading';
import { useReplacePrerendered } from '@/lib/prerendered';
import { TopNav } from './top-nav';

/** The navigation bar at once; a screen's code may still be on its way (app/screens.ts). */
export function AppLayout() {
  // index.html's pre-rendered sign-in page is hidden here; it goes with the first screen drawn.
  useReplacePrerendered();
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
