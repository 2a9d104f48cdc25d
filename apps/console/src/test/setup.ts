import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { takeUnhandledRequests } from './fetch-mock';

afterEach(() => {
  cleanup();
  const unhandled = takeUnhandledRequests();
  if (unhandled.length > 0) throw new Error(`Requests without a handler: ${unhandled.join(', ')}`);
});
