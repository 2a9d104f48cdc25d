import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDebouncedValue } from './use-debounced-value';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('useDebouncedValue', () => {
  it('answers a value only once it has stayed unchanged for the delay', () => {
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value, 500), {
      initialProps: { value: '' },
    });
    rerender({ value: '8' });
    act(() => vi.advanceTimersByTime(300));
    rerender({ value: '8.8' });
    act(() => vi.advanceTimersByTime(300));
    rerender({ value: '8.8.8.8' });
    act(() => vi.advanceTimersByTime(499));
    expect(result.current).toBe('');
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe('8.8.8.8');
  });
});
