import type { LoginRequest } from '@streamcloud/contract';
import { lazy, Suspense, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormFailure, SubmitButton } from '@/components/ui/form-failure';
import { TextField } from '@/components/ui/form-fields';
import { useAuthStore } from '@/lib/services-context';

type LoginValues = z.input<typeof LoginRequest>;

/**
 * The contract's rules, fetched with the first check (the first submit): they bring zod, which the sign-in
 * page does without until then, so it shows sooner.
 */
const loginResolver: Resolver<LoginValues, unknown, LoginRequest> = async (...args) =>
  (await import('./login-rules')).loginRules(...args);

/** The second step, fetched only when an account signs in with two factors (the first load stays small). */
const TwoFactorStep = lazy(() => import('./two-factor-step'));

export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const auth = useAuthStore();
  const [failure, setFailure] = useState<string | null>(null);
  /** The password step's ticket while the second step is shown. */
  const [ticket, setTicket] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LoginValues, unknown, LoginRequest>({
    resolver: loginResolver,
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = handleSubmit(async (credentials) => {
    setFailure(null);
    const result = await auth.login(credentials);
    if (result.ok) onSuccess();
    else if ('ticket' in result) setTicket(result.ticket);
    else setFailure(result.error);
  });

  if (ticket) {
    return (
      <Suspense fallback={<output className="spinner-border" aria-label="Loading" />}>
        <TwoFactorStep
          ticket={ticket}
          onSuccess={onSuccess}
          onRestart={(reason) => {
            setTicket(null);
            setFailure(reason);
          }}
        />
      </Suspense>
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-label="Login">
      <FormFailure>{failure}</FormFailure>
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
      <SubmitButton submitting={isSubmitting}>Login</SubmitButton>
    </form>
  );
}
