import { LoginRequest } from '@streamcloud/contract';
import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { TextField } from '@/components/ui/form-fields';
import { contractResolver } from '@/lib/forms';
import { useAuthStore } from '@/lib/services-context';

type LoginValues = z.input<typeof LoginRequest>;

export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const auth = useAuthStore();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues, unknown, LoginRequest>({
    resolver: contractResolver(LoginRequest),
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = handleSubmit(async (credentials) => {
    setFailure(null);
    const result = await auth.login(credentials);
    if (result.ok) onSuccess();
    else setFailure(result.error);
  });

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Login">
      {failure && <Alert variant="danger">{failure}</Alert>}
      <TextField
        id="login-username"
        label="Username"
        autoComplete="username"
        autoFocus
        error={errors.username?.message}
        {...register('username')}
      />
      <TextField
        id="login-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <Button type="submit" className="w-100" disabled={isSubmitting}>
        {isSubmitting && <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />}
        Login
      </Button>
    </form>
  );
}
