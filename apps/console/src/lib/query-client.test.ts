import { ApiError } from '@streamcloud/api-client';
import { describe, expect, it, vi } from 'vitest';
import { createQueryClient, IDENTITY_META, shouldRetry } from './query-client';

describe('query retries', () => {
  it.each([
    [0, true],
    [500, true],
    [503, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
  ])('status %i is retried: %s', (status, retried) => {
    expect(shouldRetry(0, new ApiError({ status }))).toBe(retried);
  });

  it('gives up after two retries and never retries other errors', () => {
    expect(shouldRetry(2, new ApiError({ status: 503 }))).toBe(false);
    expect(shouldRetry(0, new Error('bug'))).toBe(false);
  });
});

describe('an admin the API wants to enrol two-factor sign-in first', () => {
  const WHOAMI = ['whoami'];
  /** A client with the identity's query cached, as whoAmIQueryOptions makes it. */
  async function clientWithIdentity() {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const client = createQueryClient({ retry: false });
    await client.fetchQuery({
      queryKey: WHOAMI,
      queryFn: () => ({ twoFactorEnrolmentRequired: false }),
      meta: IDENTITY_META,
    });
    return client;
  }

  it.each([
    ['TWO_FACTOR_REQUIRED', true],
    ['FORBIDDEN', false],
  ])('a query refused with %s reads whoami again: %s', async (code, refreshed) => {
    const client = await clientWithIdentity();
    const refused = new ApiError({ status: 403, code });
    await expect(client.fetchQuery({ queryKey: ['streams'], queryFn: () => Promise.reject(refused) })).rejects.toBe(
      refused,
    );
    expect(client.getQueryState(WHOAMI)?.isInvalidated).toBe(refreshed);
  });

  it('a refused mutation reads whoami again', async () => {
    const client = await clientWithIdentity();
    const refused = new ApiError({ status: 403, code: 'TWO_FACTOR_REQUIRED' });
    const mutation = client.getMutationCache().build(client, { mutationFn: () => Promise.reject(refused) });
    await expect(mutation.execute(undefined)).rejects.toBe(refused);
    expect(client.getQueryState(WHOAMI)?.isInvalidated).toBe(true);
  });
});
