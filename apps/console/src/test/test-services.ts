import { createFetchMock, type Handler } from '@streamcloud/api-client/testing';
import { createQueryClient } from '@/lib/query-client';
import { createAppServices } from '@/lib/services';
import { MemoryStorage } from './memory-storage';

/** The console's real services over a mocked fetch: memory storage, no cookies, no retries. */
export function createTestServices(handlers: Record<string, Handler>, storage = new MemoryStorage()) {
  const mock = createFetchMock(handlers);
  const services = createAppServices(
    { apiBase: '/api/v1', storagePrefix: '' },
    { fetch: mock.fetch, storage, queryClient: createQueryClient({ retry: false }), readCookies: () => '' },
  );
  return { mock, services };
}
