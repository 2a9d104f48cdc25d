import { ApiError } from '@streamcloud/api-client';
import { describe, expect, it } from 'vitest';
import { shouldRetry } from './query-client';

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
