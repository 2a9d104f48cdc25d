import Badge from 'react-bootstrap/Badge';
import Nav from 'react-bootstrap/Nav';
import NavDropdown from 'react-bootstrap/NavDropdown';
import { useNavigate } from 'react-router';
import { useAuth, useAuthStore } from '@/lib/services-context';

export function UserMenu({ username }: { username: string | undefined }) {
  const { isImpersonated } = useAuth();
  const auth = useAuthStore();
  const navigate = useNavigate();

  const stopImpersonation = async () => {
    const restored = await auth.stopImpersonation();
    navigate(restored ? '/streams?refresh=true' : '/login');
  };

  const logout = async () => {
    // Leave the guarded screens first, or their guard would add a return parameter.
    await navigate('/login', { flushSync: true });
    await auth.logout();
  };

  return (
    <Nav className="align-items-lg-center gap-2">
      {isImpersonated && (
        <Badge bg="warning" text="dark">
          Impersonating
        </Badge>
      )}
      <NavDropdown title={username ?? 'Account'} id="user-menu" align="end">
        {isImpersonated && (
          <NavDropdown.Item as="button" onClick={() => void stopImpersonation()}>
            Stop Impersonation
          </NavDropdown.Item>
        )}
        <NavDropdown.Item as="button" onClick={() => void navigate('/account/settings')}>
          Account settings
        </NavDropdown.Item>
        <NavDropdown.Item as="button" onClick={() => void navigate('/account/playback-keys')}>
          Playback signing keys
        </NavDropdown.Item>
        <NavDropdown.Item as="button" onClick={() => void navigate('/account/activity')}>
          Account activity
        </NavDropdown.Item>
        <NavDropdown.Item as="button" onClick={() => void logout()}>
          Logout
        </NavDropdown.Item>
      </NavDropdown>
    </Nav>
  );
}
