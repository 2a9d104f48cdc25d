import { useCallback, useState } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import type { FieldOfPath } from './field-of-path';
import { showServerFieldErrors } from './server-field-errors';

export interface FailingSubmitOptions<Values extends FieldValues, Submitted, Failure> {
  /** What the submit does with the checked values (a mutation); a throw is a refusal. */
  save: (values: Submitted) => Promise<void>;
  /** What the form shows of a refusal above its inputs (its failure text, or the server's detail). */
  failureOf: (error: unknown) => Failure;
  /** Which input shows a message about a body path (`namedFields`, `fieldsByPath`); the same name by default. */
  fieldOfPath?: FieldOfPath<Values> | undefined;
}

/**
 * The submit of a `useForm` form that says why it failed: a refusal puts the server's field messages under
 * their inputs and keeps `failure` (for `FormFailure`) until the next submit, or until `clearFailure()` (a
 * dialog that closes). One place for the failure state the forms used to repeat.
 */
export function useFailingSubmit<Values extends FieldValues, Submitted, Failure = string>(
  // biome-ignore lint/suspicious/noExplicitAny: the form's context is whatever the caller's form was made with
  form: Pick<UseFormReturn<Values, any, Submitted>, 'handleSubmit' | 'setError'>,
  { save, failureOf, fieldOfPath }: FailingSubmitOptions<Values, Submitted, Failure>,
) {
  const [failure, setFailure] = useState<Failure | null>(null);
  const onSubmit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await save(values);
    } catch (error) {
      showServerFieldErrors(error, form.setError, fieldOfPath);
      setFailure(failureOf(error));
    }
  });
  // Stable, so a dialog may clear it from an effect that runs when it opens.
  const clearFailure = useCallback(() => setFailure(null), []);
  return { onSubmit, failure, clearFailure };
}
