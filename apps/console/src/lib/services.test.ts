import { createFetchMock, emptyResponse, jsonResponse } from '@streamcloud/api-client/testing';
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '@/test/memory-storage';
import { createQueryClient } from './query-client';
import { createAppServices } from './services';

function setup() {
  const mock = createFetchMock({
    'POST /api/v1/login': () => jsonResponse({ token: 'second' }),
    'POST /api/v1/logout': () => emptyResponse(),
  });
  const storage = new MemoryStorage();
  storage.setItem('current_token', 'first');
  const services = createAppServices(
    { apiBase: '/api/v1', storagePrefix: '' },
    { fetch: mock.fetch, storage, queryClient: createQueryClient({ retry: false }), readCookies: () => '' },
  );
  services.queryClient.setQueryData(['accounts', 'whoami'], { username: 'first' });
  return services;
}

describe('app services', () => {
  it('forgets data cached for another identity when the token changes', async () => {
    const { auth, queryClient } = setup();
    await auth.login({ username: 'second', password: 'secret' });
    expect(queryClient.getQueryData(['accounts', 'whoami'])).toBeUndefined();
  });

  it('drops the whole cache on logout', async () => {
    const { auth, queryClient } = setup();
    await auth.logout();
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });
});
