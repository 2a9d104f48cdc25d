import { errorResponse, type Handler, jsonResponse } from '@streamcloud/api-client/testing';
import type { StreamInputSummary } from '@streamcloud/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { adminAccount, userAccount, whoAmI } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { streamInput, summaryOf, uuid } from '@/test/stream-fixtures';
import { VIEW_MODE_KEY } from '../utils/view-mode';

const whoami: Handler = () => jsonResponse(whoAmI(userAccount));

function listAnswer(items: StreamInputSummary[], total = items.length): Response {
  return jsonResponse(items, 200, { 'X-Total-Count': String(total) });
}

const morning = summaryOf(
  streamInput({ id: uuid(11), caption: 'Morning show', format: 'WebRTC', status: 'Ingestion' }),
);
const news = summaryOf(
  streamInput({ id: uuid(12), caption: 'News', format: 'RTMP', status: 'Error', outputMode: 'Passthrough' }),
);
const bare = summaryOf(
  streamInput({ id: uuid(13), caption: null, format: 'SRT', status: 'Pending', access: 'Private' }),
);

function renderList(handlers: Record<string, Handler> = {}, path = '/streams') {
  return renderApp({
    path,
    currentToken: 'user-token',
    handlers: {
      'GET /api/v1/accounts/whoami': whoami,
      'GET /api/v1/inputs': () => listAnswer([news, bare, morning]),
      ...handlers,
    },
  });
}

const list = () => screen.getByRole('list', { name: 'Streams' });
const rowTexts = () =>
  within(list())
    .getAllByRole('listitem')
    .map((item) => item.textContent ?? '');

let consoleError: MockInstance<typeof console.error>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  consoleError.mockRestore();
  window.localStorage.clear();
});

describe('stream list', () => {
  it('lists the streams by format then caption-or-id, each linking to its dashboard', async () => {
    renderList();
    await screen.findByRole('list', { name: 'Streams' });
    const texts = rowTexts();
    expect(texts[0]).toContain('News');
    expect(texts[1]).toContain(bare.id);
    expect(texts[2]).toContain('Morning show');
    const links = within(list()).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      `/streams/view/${news.id}`,
      `/streams/view/${bare.id}`,
      `/streams/view/${morning.id}`,
    ]);
    screen.getByText('3 of 3 streams loaded');
  });

  it('shows the status badge, the caption with its id line (or the id alone), format and access badge', async () => {
    renderList();
    await screen.findByRole('list', { name: 'Streams' });
    const [newsRow, bareRow] = within(list()).getAllByRole('listitem');
    expect(newsRow?.querySelector('[data-status="Error"]')?.className).toContain('bg-danger');
    expect(newsRow?.textContent).toContain(news.id);
    expect(newsRow?.textContent).toContain('Public · Passthrough');
    expect(bareRow?.querySelector('[data-status="Pending"]')?.className).toContain('bg-primary');
    expect(bareRow?.querySelector('[data-status="Pending"] .spinner-border')).not.toBeNull();
    expect(bareRow?.textContent).toContain('Private · Adjustable transcoding');
    expect(bareRow?.textContent?.match(new RegExp(bare.id, 'g'))).toHaveLength(1);
  });

  it('searches the id or caption, trimmed and case-insensitively', async () => {
    const { user } = renderList();
    await screen.findByRole('list', { name: 'Streams' });
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), '  MORNING ');
    await waitFor(() => expect(rowTexts()).toHaveLength(1));
    expect(rowTexts()[0]).toContain('Morning show');
    await user.clear(screen.getByRole('searchbox', { name: 'Search' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), uuid(13).slice(-4));
    await waitFor(() => expect(rowTexts()).toHaveLength(1));
    expect(rowTexts()[0]).toContain(bare.id);
  });

  it('filters by protocol, state and processing, with captions of the selected names', async () => {
    const { user } = renderList();
    await screen.findByRole('list', { name: 'Streams' });
    const protocol = screen.getByRole('button', { name: 'Protocol: All' });
    await user.click(protocol);
    await user.click(screen.getByRole('checkbox', { name: 'WebRTC' }));
    await user.click(screen.getByRole('checkbox', { name: 'RTMP' }));
    expect(screen.getByRole('button', { name: 'Protocol: WebRTC, RTMP' }).textContent).toBe('WebRTC, RTMP');
    await waitFor(() => expect(rowTexts()).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'State: All' }));
    await user.click(screen.getByRole('checkbox', { name: 'Error' }));
    await waitFor(() => expect(rowTexts()).toHaveLength(1));
    expect(rowTexts()[0]).toContain('News');

    await user.click(screen.getByRole('button', { name: 'Processing: All' }));
    await user.click(screen.getByRole('checkbox', { name: 'Adjustable transcoding' }));
    screen.getByRole('button', { name: 'Processing: Adjustable transcoding' });
    await screen.findByText('No stream matches.');
  });

  it('starts the filters collapsed in a window narrower than 992 px', async () => {
    const width = window.innerWidth;
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 800 });
    try {
      renderList();
      const toggle = await screen.findByRole('button', { name: 'Filters' });
      expect(toggle.getAttribute('aria-expanded')).toBe('false');
    } finally {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
    }
  });

  it('starts the filters open in a wide window', async () => {
    const width = window.innerWidth;
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1200 });
    try {
      renderList();
      const toggle = await screen.findByRole('button', { name: 'Filters' });
      expect(toggle.getAttribute('aria-expanded')).toBe('true');
    } finally {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
    }
  });

  it('remembers the list/grid choice', async () => {
    const { user } = renderList();
    await screen.findByRole('list', { name: 'Streams' });
    expect(document.querySelector('.stream-card')).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Grid' }));
    expect(window.localStorage.getItem(VIEW_MODE_KEY)).toBe('grid');
    expect(document.querySelectorAll('.stream-card')).toHaveLength(3);
  });

  it('opens in the remembered view', async () => {
    window.localStorage.setItem(VIEW_MODE_KEY, 'grid');
    renderList();
    await screen.findByRole('list', { name: 'Streams' });
    expect(document.querySelectorAll('.stream-card')).toHaveLength(3);
    expect((screen.getByRole('radio', { name: 'Grid' }) as HTMLInputElement).checked).toBe(true);
  });

  it("loads 200 at a time and offers 'More' while fewer are loaded than the total", async () => {
    const first = Array.from({ length: 200 }, (_, index) =>
      summaryOf(streamInput({ id: uuid(100_000 + index), caption: `s${String(index).padStart(3, '0')}` })),
    );
    const last = summaryOf(streamInput({ id: uuid(100_200), caption: 's200' }));
    const { user, mock } = renderList({
      'GET /api/v1/inputs': ({ url }) =>
        url.searchParams.get('offset') === '200' ? listAnswer([last], 201) : listAnswer(first, 201),
    });
    await screen.findByText('200 of 201 streams loaded');
    await user.click(screen.getByRole('button', { name: 'More' }));
    await screen.findByText('201 of 201 streams loaded');
    expect(screen.queryByRole('button', { name: 'More' })).toBeNull();
    const queries = mock.requests.filter((request) => request.url.pathname === '/api/v1/inputs');
    expect(queries.map((request) => request.url.search)).toEqual(['?offset=0&limit=200', '?offset=200&limit=200']);
  });

  it('renders only the rows in sight of a long list', async () => {
    const many = Array.from({ length: 200 }, (_, index) => summaryOf(streamInput({ id: uuid(300_000 + index) })));
    renderList({ 'GET /api/v1/inputs': () => listAnswer(many, 10_000) });
    await screen.findByText('200 of 10000 streams loaded');
    const rendered = within(list()).getAllByRole('listitem').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(60);
  });

  it('says so when the list cannot be loaded', async () => {
    renderList({ 'GET /api/v1/inputs': () => errorResponse(500, '') });
    expect((await screen.findByRole('alert')).textContent).toBe('Something wrong with stream loading');
  });

  it('lists one account for an ADMIN with ?account=', async () => {
    const { mock } = renderList(
      { 'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(adminAccount)) },
      `/streams/account/${userAccount.id}`,
    );
    await screen.findByRole('heading', { level: 1, name: 'Account streams' });
    await screen.findByRole('list', { name: 'Streams' });
    const query = mock.requests.find((request) => request.url.pathname === '/api/v1/inputs');
    expect(query?.url.searchParams.get('account')).toBe(userAccount.id);
  });

  it('?refresh reloads the list, then goes to /streams', async () => {
    const { router, mock, location } = renderList();
    await screen.findByRole('list', { name: 'Streams' });
    const loads = () => mock.requests.filter((request) => request.url.pathname === '/api/v1/inputs').length;
    const before = loads();
    await act(() => router.navigate('/streams?refresh=true'));
    await waitFor(() => expect(location()).toBe('/streams'));
    expect(loads()).toBeGreaterThan(before);
  });
});

describe('stream creation', () => {
  it('creates with the defaults, lists the new stream first and opens the connection modal', async () => {
    const created = streamInput({
      id: uuid(99),
      caption: 'zz new one',
      format: 'WebRTC',
      access: 'Private',
      accessToken: 'tok-123',
      connection: { signallingUri: 'http://edge.example:4242/whip/in+abc' },
    });
    const { user, mock } = renderList({ 'POST /api/v1/inputs': () => jsonResponse(created, 201) });
    await screen.findByRole('list', { name: 'Streams' });
    await user.click(screen.getByRole('button', { name: 'Create stream' }));
    const dialog = await screen.findByRole('dialog');
    expect((within(dialog).getByLabelText('Format') as HTMLSelectElement).value).toBe('WebRTC');
    expect((within(dialog).getByLabelText('Output') as HTMLSelectElement).value).toBe('AdjustableTranscode');
    expect((within(dialog).getByLabelText('Access') as HTMLSelectElement).value).toBe('Public');
    expect(within(dialog).queryByLabelText('Access token')).toBeNull();

    await user.type(within(dialog).getByLabelText('Caption'), 'zz new one');
    await user.selectOptions(within(dialog).getByLabelText('Access'), 'PrivateIngoing');
    expect((within(dialog).getByLabelText('Access token') as HTMLInputElement).disabled).toBe(true);
    await user.selectOptions(within(dialog).getByLabelText('Access'), 'Private');
    await user.type(within(dialog).getByLabelText('Access token'), 'tok-123');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));

    const connection = await screen.findByRole('dialog', { name: 'Connection' });
    within(connection).getByText('http://edge.example:4242/whip/in+abc');
    within(connection).getByRole('button', { name: 'Copy endpoint' });
    within(connection).getByRole('button', { name: 'Copy token' });
    expect(within(connection).getByRole('link', { name: 'View Stream' }).getAttribute('href')).toBe(
      `/streams/view/${created.id}`,
    );
    const post = mock.requests.find((request) => request.method === 'POST');
    expect(post?.body).toMatchObject({
      format: 'WebRTC',
      access: 'Private',
      accessToken: 'tok-123',
      caption: 'zz new one',
      gslb: false,
      output: { version: 2, passthrough: false },
    });
    const [first, second] = within(list()).getAllByRole('listitem');
    expect(first?.textContent).toContain('zz new one');
    expect(first?.querySelector('.badge.bg-info')?.textContent).toBe('new');
    expect(second?.querySelector('.badge.bg-info')).toBeNull();
  });

  it('creates an Internode stream from a source stream and its node; the connection says what it is', async () => {
    const source = { id: uuid(98), name: `in+${uuid(97)}`, streamNode: 'origin-1' };
    const created = streamInput({
      id: uuid(99),
      caption: 'zz copy',
      format: 'Internode',
      connection: { hostname: 'origin-1.example', streamNode: 'origin-1' },
      source,
    });
    const { user, mock } = renderList({
      'POST /api/v1/inputs': ({ body }) =>
        (body as { source?: { streamNode?: string } }).source?.streamNode === 'origin-1'
          ? jsonResponse(created, 201)
          : errorResponse(400, 'Stream node: stream in+x is on node origin-1, not on nowhere'),
    });
    await screen.findByRole('list', { name: 'Streams' });
    await user.click(screen.getByRole('button', { name: 'Create stream' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByLabelText('Stream node')).toBeNull();
    await user.selectOptions(within(dialog).getByLabelText('Format'), 'Internode');
    within(within(dialog).getByRole('group', { name: 'Source stream' })).getByLabelText('Stream name');

    // Both source fields are required, each says so under itself; nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await within(dialog).findByText('Stream node is required');
    within(dialog).getByText('Stream name is required');
    expect(mock.requests.filter((request) => request.method === 'POST')).toHaveLength(0);

    // The server's refusal (a source on another node) is shown in the page.
    await user.type(within(dialog).getByLabelText('Stream node'), 'nowhere');
    await user.type(within(dialog).getByLabelText('Stream name'), source.name);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Stream node: stream in+x is on node origin-1, not on nowhere',
    );

    await user.clear(within(dialog).getByLabelText('Stream node'));
    await user.type(within(dialog).getByLabelText('Stream node'), 'origin-1');
    await user.type(within(dialog).getByLabelText('Caption'), 'zz copy');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const connection = await screen.findByRole('dialog', { name: 'Connection' });
    within(connection).getByText('origin-1.example / origin-1');
    within(connection).getByText(
      `Internode: nothing is pushed to this stream. Node edge-1 pulls stream ${source.name} from node origin-1 while that stream is live.`,
    );
    const posts = mock.requests.filter((request) => request.method === 'POST');
    expect(posts.at(-1)?.body).toMatchObject({
      format: 'Internode',
      caption: 'zz copy',
      source: { streamNode: 'origin-1', name: source.name },
    });
  });

  it('shows the server message, or the fallback text, when creation fails', async () => {
    const { user } = renderList({ 'POST /api/v1/inputs': () => errorResponse(500, '') });
    await screen.findByRole('list', { name: 'Streams' });
    await user.click(screen.getByRole('button', { name: 'Create stream' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Create' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something wrong with stream creation');
  });

  it('looks the streamer up 500 ms after typing stops, and says when the location is undetermined', async () => {
    const { user, mock } = renderList({
      'GET /api/v1/info/location': ({ url }) =>
        url.searchParams.get('ipAddress') === '8.8.8.8'
          ? jsonResponse({
              ipAddress: '8.8.8.8',
              description: 'Mountain View, US',
              geo: { latitude: 37.4, longitude: -122 },
            })
          : errorResponse(404, 'Location not found'),
    });
    await screen.findByRole('list', { name: 'Streams' });
    await user.click(screen.getByRole('button', { name: 'Create stream' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Streamer IP'), '8.8.8.8');
    await within(dialog).findByText('Mountain View, US');
    const lookups = () => mock.requests.filter((request) => request.url.pathname === '/api/v1/info/location');
    expect(lookups()).toHaveLength(1);

    await user.clear(within(dialog).getByLabelText('Streamer IP'));
    await user.type(within(dialog).getByLabelText('Streamer IP'), '10.0.0.1');
    await within(dialog).findByText('Your location undetermined, you will be directed to the free resources zone');
    expect(lookups()).toHaveLength(2);
  });

  it('closes by Escape', async () => {
    const { user } = renderList();
    await screen.findByRole('list', { name: 'Streams' });
    await user.click(screen.getByRole('button', { name: 'Create stream' }));
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
