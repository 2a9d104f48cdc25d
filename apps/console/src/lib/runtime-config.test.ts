import { createFetchMock, errorResponse, jsonResponse, networkFailure } from '@streamcloud/api-client/testing';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { DEFAULT_RUNTIME_CONFIG, loadRuntimeConfig } from './runtime-config';

let consoleWarn: MockInstance<typeof console.warn>;
beforeEach(() => {
  consoleWarn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => consoleWarn.mockRestore());

describe('runtime config', () => {
  it('reads the API base and the storage prefix from /config.json', async () => {
    const mock = createFetchMock({
      'GET /config.json': () => jsonResponse({ apiBase: 'https://api.example.com/api/v1', storagePrefix: 'acme.' }),
    });
    await expect(loadRuntimeConfig(mock.fetch)).resolves.toEqual({
      apiBase: 'https://api.example.com/api/v1',
      storagePrefix: 'acme.',
    });
  });

  it('fills missing fields with the defaults', async () => {
    const mock = createFetchMock({ 'GET /config.json': () => jsonResponse({ storagePrefix: 'x.' }) });
    await expect(loadRuntimeConfig(mock.fetch)).resolves.toEqual({ apiBase: '/api/v1', storagePrefix: 'x.' });
  });

  it.each([
    ['an error status', () => errorResponse(404)],
    ['no answer', networkFailure],
    ['a body that is not JSON', () => new Response('<html></html>', { status: 200 })],
    ['a wrong shape', () => jsonResponse({ apiBase: 42 })],
  ])('falls back to the defaults on %s', async (_, handler) => {
    const mock = createFetchMock({ 'GET /config.json': handler });
    await expect(loadRuntimeConfig(mock.fetch)).resolves.toEqual(DEFAULT_RUNTIME_CONFIG);
    expect(DEFAULT_RUNTIME_CONFIG).toEqual({ apiBase: '/api/v1', storagePrefix: '' });
    expect(consoleWarn).toHaveBeenCalled();
  });
});
