import {
  type FieldError,
  type FieldPath,
  type FieldValues,
  get,
  type RegisterOptions,
  type UseFormRegisterReturn,
  type UseFormReturn,
} from 'react-hook-form';

/** What a form kit field (`TextField`, `SelectField`, `SecretField`...) takes of a form's input. */
export type BoundField<N extends string> = UseFormRegisterReturn<N> & { error: string | undefined };

/** A form's inputs as the kit's fields take them, by name: what `fieldsOf(form)` answers. */
export type FieldBinder<V extends FieldValues> = <N extends FieldPath<V>>(
  name: N,
  options?: RegisterOptions<V, N>,
) => BoundField<N>;

/**
 * The form's inputs as the form kit's fields take them: `<TextField id label {...field('name')} />` is
 * react-hook-form's `register('name', options)` and the input's message (nested names too), so no form
 * writes `error={errors.x?.message} {...register('x')}` for each of its inputs.
 */
export function fieldsOf<V extends FieldValues>(
  // biome-ignore lint/suspicious/noExplicitAny: the form's context and output are whatever it was made with
  form: Pick<UseFormReturn<V, any, any>, 'register' | 'formState'>,
): FieldBinder<V> {
  return (name, options) => ({
    ...form.register(name, options),
    error: (get(form.formState.errors, name) as FieldError | undefined)?.message,
  });
}
