import { takeUnhandledRequests } from '@streamcloud/api-client/testing';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { installFakeCanvas } from './canvas';

beforeEach(() => installFakeCanvas());

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  const unhandled = takeUnhandledRequests();
  if (unhandled.length > 0) throw new Error(`Requests without a handler: ${unhandled.join(', ')}`);
});
