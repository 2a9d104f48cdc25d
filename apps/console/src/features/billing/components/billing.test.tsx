import { errorResponse, jsonResponse } from '@streamcloud/api-client/testing';
import type { StatisticsResponse, StreamUsage } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { downloadText } from '@/lib/download';
import { currentMonth } from '@/lib/format';
import { adminAccount, userAccount, whoAmI } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

vi.mock('@/lib/download', () => ({ downloadText: vi.fn() }));

const STREAM = '11111111-1111-4111-8111-111111111111';
const NODE = '22222222-2222-4222-8222-222222222222';

const usage: StreamUsage = {
  streamId: STREAM,
  caption: 'Main camera',
  accountId: userAccount.id,
  protocol: 'InputRTMP',
  processing: 'Passthrough',
  duration: 5400,
  incoming: [
    {
      sessionId: 'pub-1',
      nodeId: NODE,
      node: 'edge-eu',
      started: '2024-03-05T10:00:00.000Z',
      ended: '2024-03-05T11:30:00.000Z',
      duration: 5400,
      upload: 3_000_000_000,
      download: 1_500_000,
    },
  ],
  internode: [{ nodeId: NODE, node: 'edge-na', duration: 1800, upload: 0, download: 1_500_000_000 }],
  outgoing: [{ nodeId: NODE, node: 'edge-na', duration: 3000, upload: 1_000_000, download: 6_000_000_000 }],
};
const report: StatisticsResponse = { streams: [usage], concurrentSessions: 7 };

const month = currentMonth();
const enc = encodeURIComponent;
const fromIso = `${month.from}T00:00:00.000Z`;
const toIso = `${month.to}T23:59:59.999Z`;
const usagePath = `/api/v1/statistics/stream/from/${enc(fromIso)}/to/${enc(toIso)}`;

let print: ReturnType<typeof vi.fn>;
beforeEach(() => {
  print = vi.fn();
  window.print = print as unknown as typeof window.print;
});
afterEach(() => vi.mocked(downloadText).mockReset());

function accountBilling(path = '/billing/account', account = userAccount) {
  return renderApp({
    path,
    currentToken: 'token',
    handlers: {
      'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(account)),
      [`GET /api/v1/accounts/${userAccount.id}`]: () => jsonResponse(userAccount),
      [`GET ${usagePath}`]: () => jsonResponse(report),
    },
  });
}

const statisticsCalls = (requests: { url: URL }[]) =>
  requests.filter((request) => request.url.pathname.startsWith('/api/v1/statistics'));

/** The report names its account (the navigation's user menu may name it too). */
const accountShown = (username: string) => within(screen.getByRole('main')).findByText(username);

describe('account billing', () => {
  it('starts on the current month, loads nothing until Search, then shows the totals', async () => {
    const { mock, user } = accountBilling();
    await screen.findByRole('heading', { level: 1, name: 'Account billing' });
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe(month.from);
    expect((screen.getByLabelText('To') as HTMLInputElement).value).toBe(month.to);
    screen.getByRole('button', { name: 'Protocol' });
    screen.getByRole('button', { name: 'Processing' });
    await accountShown('alice');
    expect(statisticsCalls(mock.requests)).toHaveLength(0);
    expect((screen.getByRole('button', { name: 'Export CSV' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Search' }));
    const region = await screen.findByRole('region', { name: 'Usage report' });
    const [call] = statisticsCalls(mock.requests);
    expect(call?.url.searchParams.get('account')).toBe(userAccount.id);
    const totals = within(region).getByRole('table', { name: 'Usage totals' });
    within(totals).getByRole('row', { name: /Incoming 01:30:00 3\.0 0\.0 3\.0/ });
    within(totals).getByRole('row', { name: /Outgoing 00:50:00 0\.0 6\.0 6\.0/ });
    within(region).getByText('7');
    expect(within(region).queryByRole('table', { name: 'Usage per stream' })).toBeNull();
  });

  it('switches Totals, Detailed and Very detailed without a new call', async () => {
    const { mock, user } = accountBilling();
    await accountShown('alice');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const region = await screen.findByRole('region', { name: 'Usage report' });
    await user.click(screen.getByRole('radio', { name: 'Detailed' }));
    const perStream = within(region).getByRole('table', { name: 'Usage per stream' });
    within(perStream).getByRole('row', { name: /Main camera.*RTMP Passthrough 01:30:00 3\.0 1\.5 6\.0/ });
    expect(within(region).queryByRole('table', { name: 'Usage of Main camera' })).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Very detailed' }));
    const details = within(region).getByRole('table', { name: 'Usage of Main camera' });
    within(details).getByRole('row', {
      name: 'Incoming edge-eu 05/03/2024 10:00:00 05/03/2024 11:30:00 01:30:00 3.0 0.0',
    });
    within(details).getByRole('row', { name: 'Internode edge-na 00:30:00 0.0 1.5' });
    await user.click(screen.getByRole('radio', { name: 'Totals' }));
    expect(within(region).queryByRole('table', { name: 'Usage per stream' })).toBeNull();
    expect(statisticsCalls(mock.requests)).toHaveLength(1);
  });

  it('asks for the chosen protocol and processing; the captions show the choice', async () => {
    const { mock, user } = accountBilling();
    await accountShown('alice');
    mock.on(`GET ${usagePath}`, () => jsonResponse({ streams: [], concurrentSessions: 0 }));
    await user.click(screen.getByRole('button', { name: 'Protocol' }));
    await user.click(await screen.findByRole('button', { name: 'RTMP' }));
    screen.getByRole('button', { name: 'Protocol: RTMP' });
    await user.click(screen.getByRole('button', { name: 'Processing' }));
    await user.click(await screen.findByRole('button', { name: 'Transcode' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('region', { name: 'Usage report' });
    const [call] = statisticsCalls(mock.requests);
    expect(call?.url.searchParams.get('protocol')).toBe('InputRTMP');
    expect(call?.url.searchParams.get('processing')).toBe('Transcode');
    const toggle = screen.getByRole('button', { name: 'Protocol: RTMP' });
    await user.click(toggle);
    await user.click(await within(toggle.parentElement as HTMLElement).findByRole('button', { name: 'All' }));
    screen.getByRole('button', { name: 'Protocol' });
  });

  it('shows Loading... while the report loads, and searches again on a second Search', async () => {
    let release: () => void = () => undefined;
    const { mock, user } = accountBilling();
    await accountShown('alice');
    mock.on(
      `GET ${usagePath}`,
      () =>
        new Promise((resolve) => {
          release = () => resolve(jsonResponse(report));
        }),
    );
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('Loading...');
    release();
    await screen.findByRole('region', { name: 'Usage report' });
    mock.on(`GET ${usagePath}`, () => jsonResponse(report));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(statisticsCalls(mock.requests)).toHaveLength(2));
  });

  it("exports the CSV under the account's name and prints the statement", async () => {
    const { user } = accountBilling();
    await accountShown('alice');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('region', { name: 'Usage report' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(downloadText).toHaveBeenCalledWith(
      `Report alice ${month.from}-${month.to}.csv`,
      expect.stringMatching(/^Stream ID,Type,Node,Start date,End date,Duration,Upload GB,Download GB\r\n/),
    );
    await user.click(screen.getByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
    const statement = document.querySelector('.billing-print') as HTMLElement;
    const [y, m, d] = month.from.split('-');
    const [ty, tm, td] = month.to.split('-');
    expect(statement.textContent).toContain('Billing Statement');
    expect(statement.textContent).toContain(`${d}/${m}/${y} - ${td}/${tm}/${ty}`);
    expect(statement.textContent).toContain('Date Printed');
    expect(statement.textContent).toContain(`Account Number${userAccount.id}`);
    expect(statement.textContent).toContain('Namealice');
    expect(statement.querySelector('img')?.getAttribute('alt')).toBe('Streamcloud');
  });

  it("an ADMIN opens any account's report by id", async () => {
    const { mock, user } = accountBilling(`/billing/account/${userAccount.id}`, adminAccount);
    await accountShown('alice');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByRole('region', { name: 'Usage report' });
    expect(statisticsCalls(mock.requests)[0]?.url.searchParams.get('account')).toBe(userAccount.id);
  });

  it("says what went wrong when the server refuses (a USER on another account's report)", async () => {
    const other = '00000000-0000-4000-8000-000000000009';
    const { user, mock } = renderApp({
      path: `/billing/account/${other}`,
      currentToken: 'token',
      handlers: {
        'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(userAccount)),
        [`GET /api/v1/accounts/${other}`]: () => errorResponse(403, 'Not permitted'),
      },
    });
    mock.on(`GET ${usagePath}`, () => errorResponse(404, 'Account not found'));
    await user.click(await screen.findByRole('button', { name: 'Search' }));
    await screen.findByText('Account not found');
  });
});

describe('stream billing', () => {
  const streamUsagePath = `/api/v1/statistics/stream/${STREAM}/from/${enc(fromIso)}/to/${enc(toIso)}`;

  it('loads on opening; exports Report.csv; prints with the owner', async () => {
    const { mock, user } = renderApp({
      path: `/billing/stream/${STREAM}`,
      currentToken: 'token',
      handlers: {
        'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(userAccount)),
        [`GET /api/v1/accounts/${userAccount.id}`]: () => jsonResponse(userAccount),
        [`GET /api/v1/inputs/${STREAM}`]: () => errorResponse(404, 'Stream not found'),
        [`GET ${streamUsagePath}`]: () => jsonResponse({ streams: [usage] }),
      },
    });
    const region = await screen.findByRole('region', { name: 'Usage report' });
    within(region).getByRole('table', { name: 'Usage totals' });
    screen.getByText(`Main camera · ${STREAM}`);
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(downloadText).toHaveBeenCalledWith('Report.csv', 'Duration,01:30:00\r\nIncoming,3.00\r\nEgress,7.50\r\n');
    await waitFor(() => expect(document.querySelector('.billing-print')?.textContent).toContain('Namealice'));

    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(statisticsCalls(mock.requests)).toHaveLength(2));
  });
});
