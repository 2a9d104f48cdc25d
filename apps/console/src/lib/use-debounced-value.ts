import { useEffect, useState } from 'react';

/** The location lookup waits this long after typing stops. */
export const LOCATION_LOOKUP_DEBOUNCE_MS = 500;

/** The value once it has stayed unchanged for `delayMs`. */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return settled;
}
