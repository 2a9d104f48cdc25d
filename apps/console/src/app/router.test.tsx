import { errorResponse, jsonResponse } from '@streamcloud/api-client/testing';
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { adminAccount, userAccount, whoAmI } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { ACCOUNT_UNAVAILABLE, NOT_PERMITTED } from './guards';

/** Built in the recordings and relays features (their own tests cover them); here only their guard. */
const RECORDING_RELAY_SCREENS: string[] = ['/streams/recording/s1', '/streams/relay/s1'];

/** Built in the streams feature (its own tests cover them); here only their guard. */
const STREAM_SCREENS: string[] = [
  '/streams',
  '/streams/view/s1',
  '/streams/account/a1',
  '/streams/create',
  '/streams/update/s1',
];

/** Built in the transcode and fallbacks features (their own tests cover them); here only their guard. */
const TRANSCODE_FALLBACK_SCREENS: string[] = ['/streams/transcode/s1', '/streams/fallback/s1'];

/** Built in the billing and metrics features (their own tests cover them); here only their guard. */
const USAGE_SCREENS: string[] = [
  '/streams/metrics/s1',
  '/billing/stream/s1',
  '/billing/account',
  '/billing/account/a1',
  '/metrics',
];

const ADMIN_SCREENS: [path: string, title: string][] = [
  ['/nodes', 'Nodes'],
  ['/nodes/create', 'Node'],
  ['/nodes/view/n1', 'Node'],
];

function signedIn(path: string, account = userAccount) {
  return renderApp({
    path,
    currentToken: 'token',
    handlers: {
      'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(account)),
      'GET /api/v1/accounts': () => jsonResponse([adminAccount, userAccount]),
      'GET /api/v1/inputs': () => jsonResponse([], 200, { 'X-Total-Count': '0' }),
    },
  });
}

async function expectScreen(title: string, note: string) {
  await screen.findByRole('heading', { level: 1, name: title });
  await screen.findByText(note);
}

describe('routes', () => {
  it.each(ADMIN_SCREENS)('%s is not permitted to a USER', async (path, title) => {
    signedIn(path);
    await expectScreen(title, NOT_PERMITTED);
  });

  it('/accounts is not permitted to a USER and loads nothing', async () => {
    const { mock } = signedIn('/accounts');
    await expectScreen('Accounts', NOT_PERMITTED);
    expect(mock.requests.map((request) => request.url.pathname)).not.toContain('/api/v1/accounts');
  });

  it('says so when the account behind an admin-only screen cannot be loaded', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderApp({
      path: '/nodes',
      currentToken: 'token',
      handlers: { 'GET /api/v1/accounts/whoami': () => errorResponse(500) },
    });
    await expectScreen('Nodes', ACCOUNT_UNAVAILABLE);
    expect(consoleError).toHaveBeenCalled();
  });

  it.each(['/', '/nowhere', '/streams/a/b/c', '/billing'])('%s goes to /streams', async (path) => {
    const { location } = signedIn(path);
    await screen.findByRole('heading', { level: 1, name: 'Streams' });
    expect(location()).toBe('/streams');
  });

  it.each([
    ...ADMIN_SCREENS,
    ...[...STREAM_SCREENS, ...TRANSCODE_FALLBACK_SCREENS, ...USAGE_SCREENS, ...RECORDING_RELAY_SCREENS].map((path) => [
      path,
    ]),
    ['/accounts?sort=name', 'Accounts'],
  ])('%s sends a visitor to /login with a return parameter', async (path) => {
    const { location } = renderApp({ path });
    await screen.findByRole('heading', { name: 'Login' });
    expect(location()).toBe(`/login?${new URLSearchParams({ redirect: path })}`);
  });

  it('/streams?refresh=true reloads what is cached, then drops the parameter', async () => {
    const { router, mock, location } = signedIn('/streams');
    await screen.findByRole('button', { name: 'alice' });
    const whoamiCalls = () => mock.requests.filter((request) => request.url.pathname.endsWith('/whoami')).length;
    expect(whoamiCalls()).toBe(1);
    await act(() => router.navigate('/streams?refresh=true'));
    await waitFor(() => expect(location()).toBe('/streams'));
    await waitFor(() => expect(whoamiCalls()).toBe(2));
  });
});
