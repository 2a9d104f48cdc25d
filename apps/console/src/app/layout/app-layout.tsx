import Container from 'react-bootstrap/Container';
import { Outlet } from 'react-router';
import { TopNav } from './top-nav';

export function AppLayout() {
  return (
    <>
      <TopNav />
      <Container as="main" fluid="lg">
        <Outlet />
      </Container>
    </>
  );
}
