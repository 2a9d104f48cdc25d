import { type DefaultValues, type FieldValues, type Resolver, useForm } from 'react-hook-form';
import { type FieldOfPath, fieldsOf, saveShowingFieldErrors } from '@/lib/forms';
import type { JobFormFrameProps } from './job-form-frame';

/** What a job's form takes: its stream, the job when editing, and what to do on save or cancel. */
export interface JobFormProps<T, V> {
  streamId: string;
  /** The job being edited; absent when creating one. */
  job?: T | undefined;
  /** Saves; a rejection leaves the form open as it is (the caller tells why). */
  onSave: (values: V) => Promise<void>;
  onCancel: () => void;
}

/** How a feature's job form works: its name, its rules and its starting values. */
export interface JobFormSetup<T, V extends FieldValues> {
  /** The form's accessible name: 'Recording'. */
  label: string;
  resolver: Resolver<V>;
  /** Which field a server message about a body path belongs to. */
  fieldOfPath: FieldOfPath<V>;
  /** The values of a new job of the stream, and those of a stored job. */
  newValues: (streamId: string) => DefaultValues<V>;
  toFormValues: (job: T) => DefaultValues<V>;
}

/**
 * A job form's react-hook-form state (and its inputs bound for the form kit's fields, `field`), checked by the contract's rules on every change, and the props of
 * its frame: submit saves, a refusal puts the server's messages under their inputs.
 */
export function useJobForm<T, V extends FieldValues>(props: JobFormProps<T, V>, setup: JobFormSetup<T, V>) {
  const { streamId, job, onSave, onCancel } = props;
  const form = useForm<V>({
    resolver: setup.resolver,
    mode: 'all',
    defaultValues: job ? setup.toFormValues(job) : setup.newValues(streamId),
  });
  const frame: Omit<JobFormFrameProps, 'children'> = {
    label: setup.label,
    onSubmit: form.handleSubmit(saveShowingFieldErrors(onSave, form.setError, setup.fieldOfPath)),
    onCancel,
    editing: job !== undefined,
    valid: form.formState.isValid,
    submitting: form.formState.isSubmitting,
  };
  return { ...form, field: fieldsOf(form), frame };
}
