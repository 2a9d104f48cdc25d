import type { LoginRequest } from '@streamcloud/contract';
import { lazy, Suspense, useRef, useState } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FormFailure, SubmitButton } from '@/components/ui/form-failure';
import { TextField } from '@/components/ui/form-fields';
// Not the kit's index: the sign-in page stays without what the other forms need (the API client's errors).
import { fieldsOf } from '@/lib/forms/bind-field';
import { useReplacePrerendered } from '@/lib/prerendered';
import { useAuthStore } from '@/lib/services-context';

type LoginValues = z.input<typeof LoginRequest>;

/**
 * The contract's rules, fetched with the first check (the first submit): they bring zod, which the sign-in
 * page does without until then, so it shows sooner.
 */
const loginResolver: Resolver<LoginValues, unknown, LoginRequest> = async (...args) =>
  (await import('../utils/login-rules')).loginRules(...args);

/** The second step, fetched only when an account signs in with two factors (the first load stays small). */
const TwoFactorStep = lazy(() => import('./two-factor-step'));

const FIELDS = ['username', 'password'] as const;

export interface LoginFormProps {
  onSuccess: () => void;
  /**
   * Rendered at build time into index.html (app/prerender), to be shown before the app's code has arrived:
   * its button is disabled, as nothing could send it yet (Enter in a field sends nothing either).
   */
  prerendered?: boolean;
}

export function LoginForm({ onSuccess, prerendered = false }: LoginFormProps) {
  const auth = useAuthStore();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  /** The password step's ticket while the second step is shown. */
  const [ticket, setTicket] = useState<string | null>(null);
  const login = useForm<LoginValues, unknown, LoginRequest>({
    resolver: loginResolver,
    defaultValues: { username: '', password: '' },
  });
  const { handleSubmit, setValue, setFocus } = login;
  const field = fieldsOf(login);

  // What was typed into the pre-rendered form while the app's code was on its way carries over, and so do
  // the focus and the caret (the username field takes the focus otherwise, as autoFocus would).
  const adopting = useReplacePrerendered('/login', (copy, focused) => {
    for (const field of FIELDS) {
      const typed = copy.querySelector<HTMLInputElement>(`input[name="${field}"]`);
      const input = form.current?.elements.namedItem(field);
      if (!typed || !(input instanceof HTMLInputElement)) continue;
      if (typed.value) setValue(field, typed.value);
      if (focused === typed) {
        input.focus();
        input.setSelectionRange(typed.selectionStart, typed.selectionEnd, typed.selectionDirection ?? undefined);
      }
    }
    if (!focused) setFocus('username');
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
    <form ref={form} noValidate onSubmit={onSubmit} aria-label="Login">
      <FormFailure>{failure}</FormFailure>
      <TextField
        id="login-username"
        label="Username"
        autoComplete="username"
        autoFocus={!adopting}
        {...field('username')}
      />
      <TextField
        id="login-password"
        label="Password"
        type="password"
        autoComplete="current-password"
        {...field('password')}
      />
      <SubmitButton submitting={login.formState.isSubmitting} disabled={prerendered}>
        Login
      </SubmitButton>
    </form>
  );
}
