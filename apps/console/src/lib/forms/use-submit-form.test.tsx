import { ApiError } from '@streamcloud/api-client';
import { act, renderHook } from '@testing-library/react';
import type { FormEvent } from 'react';
import { describe, expect, it } from 'vitest';
import { useSubmitForm } from './use-submit-form';

interface Values {
  name: string;
  connection: { port: string };
}

const submitEvent = () => ({ preventDefault() {}, persist() {} }) as unknown as FormEvent;

describe('useSubmitForm', () => {
  it("binds an input for the kit's fields, and a refusal puts its messages under the inputs and says why", async () => {
    const refusal = new ApiError({
      status: 400,
      message: 'Bad request',
      errors: [{ path: 'body.connection.port', message: 'Port must be 1 to 65535' }],
      request: 'POST /x',
    });
    const { result } = renderHook(() =>
      useSubmitForm<Values>(
        { defaultValues: { name: 'a', connection: { port: '0' } } },
        {
          save: async () => {
            throw refusal;
          },
          failureOf: () => 'Could not save',
        },
      ),
    );
    const bound = result.current.field('connection.port');
    expect(bound.name).toBe('connection.port');
    expect(bound.error).toBeUndefined();

    await act(() => result.current.onSubmit(submitEvent()));

    expect(result.current.field('connection.port').error).toBe('Port must be 1 to 65535');
    expect(result.current.field('name').error).toBeUndefined();
    expect(result.current.failure).toBe('Could not save');
    act(() => result.current.clearFailure());
    expect(result.current.failure).toBeNull();
  });
});
