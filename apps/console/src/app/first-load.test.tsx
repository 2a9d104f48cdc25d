import { jsonResponse } from '@streamcloud/api-client/testing';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { CURRENT_TOKEN_KEY } from '@/lib/auth-store';
import { adminAccount, streamInput, whoAmI } from '@/test/fixtures';
import { MemoryStorage } from '@/test/memory-storage';
import { createTestServices } from '@/test/test-services';
import { prefetchScreenData } from './prefetch-data';
import { preloadScreens } from './preload-screens';

/** A stand-in for a lazy screen (lazyComponent): a component with preload(). */
function lazyStandIn() {
  return Object.assign(({ children }: { children?: React.ReactNode }) => children, { preload: vi.fn() });
}

describe('preloadScreens', () => {
  const Frame = lazyStandIn();
  const Guard = lazyStandIn();
  const List = lazyStandIn();
  const Login = lazyStandIn();
  const routes = [
    { path: '/login', element: <Login /> },
    {
      path: '/',
      element: (
        <div>
          <Frame />
        </div>
      ),
      children: [
        {
          path: 'streams',
          element: (
            <Guard>
              <List />
            </Guard>
          ),
        },
      ],
    },
  ];

  /** The router's own matches for `path`, as the app passes them. */
  const matchesAt = (path: string) => createMemoryRouter(routes, { initialEntries: [path] }).state.matches;

  it("fetches every lazy part of the location's screen at once, nested ones too, and nothing else", () => {
    preloadScreens(matchesAt('/streams'));
    for (const part of [Frame, Guard, List]) expect(part.preload).toHaveBeenCalledOnce();
    expect(Login.preload).not.toHaveBeenCalled();
  });

  it('fetches nothing for a location no route matches', () => {
    preloadScreens(matchesAt('/nowhere/at/all'));
    expect(Login.preload).not.toHaveBeenCalled();
  });
});

describe('prefetchScreenData', () => {
  const signedIn = () => {
    const storage = new MemoryStorage();
    storage.setItem(CURRENT_TOKEN_KEY, 'token-1');
    return storage;
  };
  const handlers = {
    'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(adminAccount)),
    'GET /api/v1/inputs': () =>
      jsonResponse([streamInput('00000000-0000-4000-8000-000000000001')], 200, { 'X-Total-Count': '1' }),
  };

  it('starts the stream list and the account together on /streams, into the cache the screen reads', async () => {
    const { mock, services } = createTestServices(handlers, signedIn());
    await prefetchScreenData(services, '/streams');
    expect(mock.requests.map((request) => request.url.pathname).sort()).toEqual([
      '/api/v1/accounts/whoami',
      '/api/v1/inputs',
    ]);
    expect(services.queryClient.getQueryData(['streams', 'list', { account: null }])).toMatchObject({
      pages: [{ total: 1 }],
    });
  });

  it("starts a stream dashboard's stream with what its Preview card needs (outputs, credential, player code)", async () => {
    const id = '00000000-0000-4000-8000-000000000002';
    const credential = { token: 'pv1.1900000000.signature', expiresAt: '2030-01-01T00:00:00.000Z' };
    const { mock, services } = createTestServices(
      {
        ...handlers,
        [`GET /api/v1/inputs/${id}`]: () => jsonResponse(streamInput(id)),
        'GET /api/v1/outputs': () => jsonResponse([], 200, { 'X-Total-Count': '0' }),
        [`POST /api/v1/inputs/${id}/preview`]: () => jsonResponse(credential),
      },
      signedIn(),
    );
    await prefetchScreenData(services, `/streams/view/${id}`);
    expect(mock.requests.map((request) => `${request.method} ${request.url.pathname}`).sort()).toEqual([
      'GET /api/v1/accounts/whoami',
      `GET /api/v1/inputs/${id}`,
      'GET /api/v1/outputs',
      `POST /api/v1/inputs/${id}/preview`,
    ]);
    expect(services.queryClient.getQueryData(['streams', 'detail', id, 'preview'])).toEqual(credential);
    expect(services.queryClient.getQueryData(['streams', 'detail', id])).toMatchObject({ id });
    expect(services.queryClient.getQueryData(['streams', 'outputs', id])).toMatchObject({ pages: [{ total: 0 }] });
  });

  it('reads only the account on a screen it has no reads for', async () => {
    const { mock, services } = createTestServices(handlers, signedIn());
    await prefetchScreenData(services, '/storages');
    expect(mock.requests.map((request) => request.url.pathname)).toEqual(['/api/v1/accounts/whoami']);
  });

  it('reads nothing without a session (every screen is the sign-in page then)', async () => {
    const { mock, services } = createTestServices(handlers);
    await prefetchScreenData(services, '/streams');
    expect(mock.requests).toHaveLength(0);
    expect(services.queryClient.getQueryCache().getAll()).toHaveLength(0);
  });
});
