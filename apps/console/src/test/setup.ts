import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { installFakeCanvas } from './canvas';
import { takeUnhandledRequests } from './fetch-mock';

beforeEach(() => installFakeCanvas());

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  const unhandled = takeUnhandledRequests();
  if (unhandled.length > 0) throw new Error(`Requests without a handler: ${unhandled.join(', ')}`);
});
