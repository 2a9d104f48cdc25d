import { type FieldValues, type UseFormProps, useForm } from 'react-hook-form';
import { fieldsOf } from './bind-field';
import { type FailingSubmitOptions, useFailingSubmit } from './use-failing-submit';

/**
 * The one form hook: `useForm` with the submit that says why it failed (`useFailingSubmit`: `onSubmit`,
 * `failure`, `clearFailure`) and the inputs bound for the form kit's fields (`field('name')`, `fieldsOf`).
 */
export function useSubmitForm<Values extends FieldValues, Submitted = Values, Failure = string>(
  formProps: UseFormProps<Values, unknown, Submitted>,
  submit: FailingSubmitOptions<Values, Submitted, Failure>,
) {
  const form = useForm<Values, unknown, Submitted>(formProps);
  return { form, field: fieldsOf(form), ...useFailingSubmit(form, submit) };
}
