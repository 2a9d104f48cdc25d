import broadcastIcon from 'bootstrap-icons/icons/broadcast.svg?raw';
import { useNavigate, useSearchParams } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { LoginForm } from '@/features/auth/components/login-form';
import { safeRedirect } from '../paths';

export function LoginRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const target = safeRedirect(params.get('redirect'));

  return (
    <main className="login-page d-flex align-items-center justify-content-center bg-body-tertiary p-3">
      <title>Login · Streamcloud</title>
      <div className="card login-card shadow-sm">
        <div className="card-body p-4">
          <p className="text-secondary mb-1">
            <Icon svg={broadcastIcon} className="me-2" />
            Streamcloud
          </p>
          <h1 className="h3 mb-4">Login</h1>
          <LoginForm onSuccess={() => navigate(target, { replace: true })} />
        </div>
      </div>
    </main>
  );
}
