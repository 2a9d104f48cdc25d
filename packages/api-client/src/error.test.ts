import { describe, expect, it } from 'vitest';
import { ApiError, errorStatus, isApiError, messageOr } from './error.js';

describe('api errors', () => {
  it('prefer the server message over a fallback text', () => {
    expect(messageOr(new ApiError({ status: 409, message: 'Name taken' }), 'Something wrong')).toBe('Name taken');
    expect(messageOr(new ApiError({ status: 500 }), 'Something wrong')).toBe('Something wrong');
    expect(messageOr(new Error('bug'), 'Something wrong')).toBe('Something wrong');
  });

  it('tell their status, 0 for no answer', () => {
    expect(errorStatus(new ApiError({ status: 0 }))).toBe(0);
    expect(errorStatus(new Error('bug'))).toBeUndefined();
    expect(isApiError(new ApiError({ status: 404 }))).toBe(true);
    expect(new ApiError({ status: 0 }).message).toBe('Network failure');
    expect(new ApiError({ status: 404 }).message).toBe('Request failed with status 404');
  });
});
