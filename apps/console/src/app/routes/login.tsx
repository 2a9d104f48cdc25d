import broadcastIcon from 'bootstrap-icons/icons/broadcast.svg?raw';
import { useNavigate, useSearchParams } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { LoginForm, type LoginFormProps } from '@/features/auth/components/login-form';
import { safeRedirect } from '../paths';

/** The sign-in page; also rendered at build time into index.html (app/prerender). */
export function LoginPage(props: LoginFormProps) {
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
          <LoginForm {...props} />
        </div>
      </div>
    </main>
  );
}

export function LoginRoute() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const target = safeRedirect(params.get('redirect'));
  return <LoginPage onSuccess={() => navigate(target, { replace: true })} />;
}
