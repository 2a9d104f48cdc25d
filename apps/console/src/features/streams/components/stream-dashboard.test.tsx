import { emptyResponse, errorResponse, type Handler, jsonResponse } from '@streamcloud/api-client/testing';
import type { StreamInput, StreamStatus } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { userAccount, webhookDelivery, whoAmI } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { emptyAnalytics, qualityRule, streamInput, streamOutput, uuid } from '@/test/stream-fixtures';
import { MEDIA_ERRORS } from '../utils/studio-media';
import { RTSP_TCP_ONLY } from './connection-modal';

const ID = uuid(42);

/**
 * What the cards other features add to the dashboard (their `components/stream-card.tsx`) read, answered as
 * `src/test/stream-cards/<feature>.ts` says for each: a new card needs no handler here.
 */
const featureCardHandlers = import.meta.glob<{ streamCardHandlers: (streamId: string) => Record<string, Handler> }>(
  '../../../test/stream-cards/*.ts',
  { eager: true },
);
const cardHandlers = (streamId: string): Record<string, Handler> =>
  Object.assign({}, ...Object.values(featureCardHandlers).map((card) => card.streamCardHandlers(streamId)));
const STREAM_URL = `/api/v1/inputs/${ID}`;

function renderDashboard(
  stream: Partial<StreamInput> = {},
  handlers: Record<string, Handler> = {},
  path = `/streams/view/${ID}`,
) {
  let current = streamInput({ id: ID, ...stream });
  const rendered = renderApp({
    path,
    currentToken: 'user-token',
    handlers: {
      ...cardHandlers(ID),
      'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(userAccount)),
      [`GET ${STREAM_URL}`]: () => jsonResponse(current),
      'GET /api/v1/outputs': () => jsonResponse([], 200, { 'X-Total-Count': '0' }),
      [`POST ${STREAM_URL}/preview`]: () =>
        jsonResponse({ token: 'pv1.1900000000.sig', expiresAt: '2030-01-01T00:00:00Z' }),
      [`GET /api/v1/recordings/stream/${ID}`]: () => jsonResponse([]),
      [`GET /api/v1/relays/stream/${ID}`]: () => jsonResponse([]),
      'GET /api/v1/clips': () => jsonResponse([]),
      'GET /api/v1/vods': () => jsonResponse([]),
      'GET /api/v1/statistics/*': () => jsonResponse({ result: [] }),
      [`GET /api/v1/snapshots/stream/${ID}/*`]: () => errorResponse(404, 'Snapshot settings not found'),
      'GET /api/v1/webhooks/deliveries': () => jsonResponse([], 200, { 'X-Total-Count': '0' }),
      [`GET /api/v1/info/stream/${ID}/*`]: () => jsonResponse([]),
      [`GET ${STREAM_URL}/analytics`]: () => jsonResponse(emptyAnalytics()),
      [`GET ${STREAM_URL}/analytics/sessions`]: () => jsonResponse({ sessions: [] }),
      [`GET ${STREAM_URL}/quality-rule`]: () => jsonResponse(qualityRule(ID)),
      [`PUT ${STREAM_URL}`]: ({ body }) => {
        const update = body as { caption?: string; state?: string };
        current = {
          ...current,
          ...(update.caption !== undefined ? { caption: update.caption || null } : {}),
          ...(update.state ? { status: 'Idle' as const } : {}),
        };
        return jsonResponse(current);
      },
      ...handlers,
    },
  });
  return rendered;
}

const toolbar = () => within(screen.getByRole('toolbar', { name: 'Stream actions' }));
const region = (name: string) => within(screen.getByRole('region', { name }));

function isEnabled(name: string | RegExp): boolean {
  const element = toolbar().queryByRole('button', { name }) ?? toolbar().getByRole('link', { name });
  return !(element as HTMLButtonElement).disabled && element.getAttribute('aria-disabled') !== 'true';
}

let consoleError: MockInstance<typeof console.error>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => consoleError.mockRestore());

const BUTTONS = [
  'Billing',
  'Stop',
  'Transcoding',
  'Snapshots',
  'Recordings',
  'Relays',
  /^GSLB/,
  'Fallback',
  'Update',
  'Delete',
];

type Case = [StreamStatus, 'AdjustableTranscode' | 'Passthrough', boolean[], boolean];
// Billing, Stop, Transcoding, Snapshots, Recordings, Relays, GSLB, Fallback, Update, Delete; Record.
const CASES: Case[] = [
  ['Pending', 'AdjustableTranscode', [true, true, true, true, true, true, true, true, false, true], false],
  ['Idle', 'AdjustableTranscode', [true, false, true, true, true, true, true, true, true, true], false],
  ['Idle', 'Passthrough', [true, false, false, true, true, true, true, true, true, true], false],
  ['Ingestion', 'AdjustableTranscode', [true, true, false, false, true, true, true, true, false, true], true],
  ['Error', 'AdjustableTranscode', [true, false, false, false, false, false, false, true, true, true], false],
  ['Fallback', 'Passthrough', [true, true, false, true, true, true, true, true, false, true], false],
];

describe('stream dashboard', () => {
  it.each(CASES)('%s (%s) enables exactly the section 4 buttons', async (status, outputMode, expected, record) => {
    renderDashboard({ status, outputMode });
    await screen.findByTestId('stream-status');
    expect(screen.getByTestId('stream-status').textContent).toBe(status);
    expect(BUTTONS.map(isEnabled)).toEqual(expected);
    expect(!(screen.getByRole('button', { name: 'Record' }) as HTMLButtonElement).disabled).toBe(record);
  });

  it('links the header buttons to their pages', async () => {
    renderDashboard();
    await screen.findByTestId('stream-status');
    const href = (name: string) => toolbar().getByRole('link', { name }).getAttribute('href');
    expect(href('Billing')).toBe(`/billing/stream/${ID}`);
    expect(href('Transcoding')).toBe(`/streams/transcode/${ID}`);
    expect(href('Recordings')).toBe(`/streams/recording/${ID}`);
    expect(href('Relays')).toBe(`/streams/relay/${ID}`);
    expect(href('Fallback')).toBe(`/streams/fallback/${ID}`);
  });

  it('shows the Pending callout', async () => {
    renderDashboard({ status: 'Pending', connection: null });
    expect((await screen.findByRole('note', { name: 'Stream status' })).textContent).toContain('pending');
    region('Input').getByText(/waiting for a media node/);
  });

  it('shows the Ingestion callout, the snapshots and the recordings and relays cards', async () => {
    renderDashboard({ status: 'Ingestion' });
    expect((await screen.findByRole('note', { name: 'Stream status' })).textContent).toContain('live');
    screen.getByRole('region', { name: 'Recordings and Relays' });
    screen.getByRole('region', { name: 'Snapshots' });
  });

  it('in Error shows no callout, no recordings and relays card, no snapshots', async () => {
    renderDashboard({ status: 'Error' });
    await screen.findByTestId('stream-status');
    expect(screen.queryByRole('note', { name: 'Stream status' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Recordings and Relays' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Snapshots' })).toBeNull();
  });

  it('fills the streamer and input cards; the token only for private modes; the GSLB endpoint', async () => {
    renderDashboard(
      {
        access: 'Private',
        accessToken: 'tok-9',
        gslb: true,
        callbackUri: 'https://example.com/cb',
        streamer: { ipAddress: '8.8.8.8', geoLocation: null },
        format: 'SRT',
        connection: { uri: 'srt://edge.example:9710?streamid=in%2Bxyz' },
        statusMessages: [{ at: '2025-01-01T00:00:00.000Z', level: 'warning', text: 'No node is available' }],
      },
      {
        [`GET /api/v1/gslb/input/stream/${ID}`]: () =>
          jsonResponse({ streamId: ID, name: 'as+1', connection: { uri: 'srt://gslb.example:9710?streamid=as%2B1' } }),
      },
    );
    await screen.findByTestId('stream-status');
    region('Streamer').getByText('8.8.8.8');
    region('Streamer').getByText('https://example.com/cb');
    region('Input').getByText('in+xyz');
    region('Input').getByText('tok-9');
    await region('Input').findByText('srt://gslb.example:9710?streamid=as%2B1');
    region('Messages').getByText('No node is available');
  });

  it('names the serving node and its groups, or the shared pool', async () => {
    renderDashboard({
      servingNode: {
        id: uuid(9),
        name: 'edge-eu-1',
        groups: [
          { id: uuid(10), name: 'Acme ingest', assignment: 'Ingestion', ownerId: uuid(11) },
          { id: uuid(12), name: 'Cloud edges', assignment: 'Outgoing', ownerId: null },
        ],
      },
    });
    await screen.findByTestId('stream-status');
    region('Input').getByText('edge-eu-1');
    region('Input').getByText('Acme ingest (Ingestion)');
    region('Input').getByText('Cloud edges (Outgoing, streaming cloud)');
  });

  it('says a node in no group is the shared pool', async () => {
    renderDashboard({ servingNode: { id: uuid(9), name: 'edge-1', groups: [] } });
    await screen.findByTestId('stream-status');
    region('Input').getByText('None: the shared pool');
  });

  it('lists the incoming and outgoing tracks the node reported', async () => {
    const track = (idx: number, width: number, height: number, bps: number) => ({
      idx,
      type: 'Video' as const,
      codec: 'H264',
      width,
      height,
      bps,
      channels: null,
      rate: 30,
    });
    const aac = {
      idx: 2,
      type: 'Audio' as const,
      codec: 'AAC',
      width: null,
      height: null,
      bps: 128_000,
      channels: 2,
      rate: 48000,
    };
    renderDashboard(
      { status: 'Ingestion' },
      {
        [`GET /api/v1/info/stream/${ID}/incoming`]: () => jsonResponse([track(0, 1920, 1080, 6e6)]),
        [`GET /api/v1/info/stream/${ID}/outgoing`]: () =>
          jsonResponse([track(0, 1280, 720, 2.5e6), track(1, 640, 360, 8e5), aac]),
      },
    );
    await screen.findByTestId('stream-status');
    const incoming = await region('Tracks').findByRole('list', { name: 'Incoming tracks' });
    expect(
      within(incoming)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['H264, 1920x1080, 6 mbps']);
    const outgoing = await region('Tracks').findByRole('list', { name: 'Outgoing tracks' });
    expect(
      within(outgoing)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['H264, 1280x720, 2.5 mbps', 'H264, 640x360, 800 kbps', 'AAC, 2 channels, 128 kbps']);
  });

  it('shows no token for public streams', async () => {
    renderDashboard({ access: 'Public' });
    await screen.findByTestId('stream-status');
    expect(region('Input').queryByText('Access token')).toBeNull();
  });

  it('offers the studio for a WebRTC stream only, opened on demand with the stream’s status', async () => {
    const getUserMedia = vi.fn().mockRejectedValue(new DOMException('none', 'NotFoundError'));
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia } });
    const { user } = renderDashboard({ format: 'WebRTC', connection: { signallingUri: 'http://node:4242/whip/in' } });
    await user.click(await screen.findByRole('button', { name: 'Go live' }));
    const studio = within(await screen.findByRole('dialog', { name: 'Studio' }));
    expect(studio.getByRole('status', { name: 'Stream status' }).textContent).toBe('Stream: Idle');
    expect((await studio.findByRole('alert')).textContent).toBe(MEDIA_ERRORS.missing);
  });

  it('has no Go live button for a stream pushed otherwise', async () => {
    renderDashboard({ format: 'RTMP' });
    await screen.findByTestId('stream-status');
    expect(screen.queryByRole('button', { name: 'Go live' })).toBeNull();
  });

  it('saves the caption on Enter', async () => {
    const { user, mock } = renderDashboard({ caption: 'Old' });
    await user.click(await screen.findByTitle('Click me to change'));
    const input = screen.getByRole('textbox', { name: 'Caption' });
    await user.clear(input);
    await user.type(input, 'New caption{Enter}');
    await screen.findByTitle('Click me to change');
    await waitFor(() => expect(screen.getByTitle('Click me to change').textContent).toContain('New caption'));
    const puts = mock.requests.filter((request) => request.method === 'PUT');
    expect(puts.map((request) => request.body)).toEqual([{ caption: 'New caption' }]);
  });

  it('saves the caption on blur', async () => {
    const { user, mock } = renderDashboard({ caption: null });
    await user.click(await screen.findByTitle('Click me to change'));
    await user.type(screen.getByRole('textbox', { name: 'Caption' }), 'Blurred');
    await user.click(screen.getByTestId('stream-status'));
    await waitFor(() => expect(screen.getByTitle('Click me to change').textContent).toContain('Blurred'));
    expect(mock.requests.filter((request) => request.method === 'PUT').map((request) => request.body)).toEqual([
      { caption: 'Blurred' },
    ]);
  });

  it('says so when the caption cannot be saved', async () => {
    const { user } = renderDashboard({ caption: 'Old' }, { [`PUT ${STREAM_URL}`]: () => errorResponse(500, '') });
    await user.click(await screen.findByTitle('Click me to change'));
    await user.type(screen.getByRole('textbox', { name: 'Caption' }), ' more{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('Something wrong on stream caption update!');
  });

  it('stops a stream in Ingestion with state Idle', async () => {
    const { user, mock } = renderDashboard({ status: 'Ingestion' });
    await screen.findByTestId('stream-status');
    await user.click(toolbar().getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(screen.getByTestId('stream-status').textContent).toBe('Idle'));
    expect(mock.requests.find((request) => request.method === 'PUT')?.body).toEqual({ state: 'Idle' });
  });

  it('prefers the server message when stopping fails', async () => {
    const { user } = renderDashboard(
      { status: 'Pending' },
      { [`PUT ${STREAM_URL}`]: () => errorResponse(409, 'A stream can be stopped only in Ingestion or Pending') },
    );
    await screen.findByTestId('stream-status');
    await user.click(toolbar().getByRole('button', { name: 'Stop' }));
    expect((await screen.findByRole('alert')).textContent).toBe('A stream can be stopped only in Ingestion or Pending');
  });

  it('deletes after the confirm and goes to /streams', async () => {
    const { user, location } = renderDashboard(
      {},
      {
        [`DELETE ${STREAM_URL}`]: () => emptyResponse(),
        'GET /api/v1/inputs': () => jsonResponse([], 200, { 'X-Total-Count': '0' }),
      },
    );
    await screen.findByTestId('stream-status');
    await user.click(toolbar().getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Do you really want to delete stream? This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(location()).toBe('/streams'));
  });

  it('only logs a failed deletion', async () => {
    const { user, location } = renderDashboard({}, { [`DELETE ${STREAM_URL}`]: () => errorResponse(500, 'boom') });
    await screen.findByTestId('stream-status');
    await user.click(toolbar().getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(consoleError).toHaveBeenCalledWith('Stream deletion failed', expect.anything()));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(location()).toBe(`/streams/view/${ID}`);
  });

  it('says so when the stream cannot be loaded', async () => {
    renderDashboard({}, { [`GET ${STREAM_URL}`]: () => errorResponse(500, '') });
    expect((await screen.findByRole('alert')).textContent).toBe('Something wrong with stream loading');
    const deleteButton = toolbar().getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(deleteButton.disabled).toBe(true);
  });

  it('updates the streamer only, with the creation-time fields locked', async () => {
    const { user, mock } = renderDashboard({ status: 'Idle', caption: 'Cap', callbackUri: null });
    await screen.findByTestId('stream-status');
    await user.click(toolbar().getByRole('button', { name: 'Update' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update stream' });
    for (const label of ['Caption', 'Format', 'Output', 'Access', 'Callback URI']) {
      expect((within(dialog).getByLabelText(label) as HTMLInputElement).disabled).toBe(true);
    }
    expect((within(dialog).getByLabelText('GSLB') as HTMLInputElement).disabled).toBe(true);
    await user.type(within(dialog).getByLabelText('Streamer IP'), '10.1.2.3');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mock.requests.find((request) => request.method === 'PUT')?.body).toEqual({
      streamer: { ipAddress: '10.1.2.3' },
    });
  });

  it('reports a failed update', async () => {
    const { user } = renderDashboard({ status: 'Error' }, { [`PUT ${STREAM_URL}`]: () => errorResponse(500, '') });
    await screen.findByTestId('stream-status');
    await user.click(toolbar().getByRole('button', { name: 'Update' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Update' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something wrong on stream updating');
  });

  it('provisions the GSLB endpoint, and reports a failure', async () => {
    const { user, mock } = renderDashboard({}, { 'POST /api/v1/gslb/input': () => errorResponse(500, '') });
    await screen.findByTestId('stream-status');
    await user.click(toolbar().getByRole('button', { name: /^GSLB/ }));
    const dialog = await screen.findByRole('dialog');
    within(dialog).getByText('beta');
    await user.click(within(dialog).getByRole('button', { name: 'Provision' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something wrong with ingress endpoint creation');
    expect(mock.requests.find((request) => request.method === 'POST')?.body).toEqual({ streamId: ID });
  });

  it('opens the snapshot settings from the Snapshots button', async () => {
    const { user } = renderDashboard();
    await screen.findByTestId('stream-status');
    await user.click(toolbar().getByRole('button', { name: 'Snapshots' }));
    await screen.findByRole('dialog', { name: 'Snapshot settings' });
  });

  it('/streams/update/{id} opens the update modal over the dashboard', async () => {
    renderDashboard({ status: 'Idle' }, {}, `/streams/update/${ID}`);
    await screen.findByRole('dialog', { name: 'Update stream' });
  });
});

describe('callbacks', () => {
  it('lists the webhooks of the stream and of its outputs, recordings and relays, 20 per page', async () => {
    const first = Array.from({ length: 20 }, (_, index) =>
      webhookDelivery({ id: uuid(1000 + index), type: index % 2 ? 'stream.idle' : 'stream.ingestion', streamId: ID }),
    );
    const last = webhookDelivery({
      id: uuid(2000),
      type: 'output.session.started',
      resourceType: 'output',
      streamId: ID,
    });
    const { user, mock } = renderDashboard(
      {},
      {
        'GET /api/v1/webhooks/deliveries': ({ url }) =>
          jsonResponse(url.searchParams.get('offset') === '20' ? [last] : first, 200, { 'X-Total-Count': '21' }),
      },
    );
    const card = within(await screen.findByRole('region', { name: 'Callbacks' }));
    await card.findAllByText('stream.ingestion');
    expect(card.getAllByRole('row')).toHaveLength(21);
    await user.click(card.getByRole('button', { name: 'Load more' }));
    await card.findByText('output.session.started');
    const asked = mock.requests.find((request) => request.url.pathname === '/api/v1/webhooks/deliveries');
    expect(asked?.url.searchParams.get('streamId')).toBe(ID);
  });
});

describe('viewers', () => {
  it("lists 4 per page with 'Load more', clears sessions, deletes and reports failures", async () => {
    const outputs = Array.from({ length: 5 }, (_, index) =>
      streamOutput(ID, index, {
        sessions: [{ id: `s${index}`, ipAddress: null, startedAt: '2025-01-01T00:00:00.000Z', bytes: 1 }],
      }),
    );
    const { user, mock } = renderDashboard(
      {},
      {
        'GET /api/v1/outputs': ({ url }) => {
          const offset = Number(url.searchParams.get('offset'));
          return jsonResponse(outputs.slice(offset, offset + 4), 200, { 'X-Total-Count': '5' });
        },
        [`DELETE /api/v1/outputs/${outputs[0]?.id}/sessions`]: () => emptyResponse(),
        [`DELETE /api/v1/outputs/${outputs[1]?.id}/sessions`]: () => errorResponse(500, ''),
        [`DELETE /api/v1/outputs/${outputs[2]?.id}`]: () => errorResponse(500, ''),
      },
    );
    const viewers = await screen.findByRole('list', { name: 'Viewers' });
    expect(within(viewers).getAllByRole('listitem')).toHaveLength(4);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() =>
      expect(within(screen.getByRole('list', { name: 'Viewers' })).getAllByRole('listitem')).toHaveLength(5),
    );
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();

    const item = (index: number) => within(screen.getByRole('listitem', { name: `Viewer ${outputs[index]?.name}` }));
    await user.click(item(0).getByRole('button', { name: 'Clear sessions' }));
    await waitFor(() =>
      expect(
        mock.requests.some((request) => request.method === 'DELETE' && request.url.pathname.endsWith('/sessions')),
      ).toBe(true),
    );
    await user.click(item(1).getByRole('button', { name: 'Clear sessions' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something wrong with sessions cleanup');
    await user.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    await user.click(item(2).getByRole('button', { name: 'Delete' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something wrong with output delete');
  });

  it("counts the console's preview apart from the output's viewer sessions", async () => {
    const output = streamOutput(ID, 0, { previews: 1 });
    renderDashboard({}, { 'GET /api/v1/outputs': () => jsonResponse([output], 200, { 'X-Total-Count': '1' }) });
    const item = within(await screen.findByRole('listitem', { name: `Viewer ${output.name}` }));
    expect(item.getByText('0 sessions')).toBeInstanceOf(HTMLElement);
    expect(item.getByText('1 preview')).toBeInstanceOf(HTMLElement);
  });

  it("shows a Private stream's playback token masked, and copies it and a URL that carries it per protocol", async () => {
    const token = 'tok_en-1';
    const name = (n: number) => `out%2B${uuid(8000 + n)}`;
    const outputs = [
      streamOutput(ID, 0, { format: 'HLS', connection: { uri: `http://edge.example:4242/hls/${name(0)}/index.m3u8` } }),
      streamOutput(ID, 1, { format: 'SRT', connection: { uri: `srt://edge.example:9710?streamid=${name(1)}` } }),
      streamOutput(ID, 2, {
        format: 'WebRTC',
        connection: { signallingUri: `http://edge.example:4242/whep/${name(2)}` },
      }),
      streamOutput(ID, 3, { format: 'RTMP', connection: { uri: `rtmp://edge.example:1935/live/${name(3)}` } }),
    ].map((output) => ({ ...output, access: 'Private' as const, viewer: { ...output.viewer, accessToken: token } }));
    const { user } = renderDashboard(
      { access: 'Private' },
      { 'GET /api/v1/outputs': () => jsonResponse(outputs, 200, { 'X-Total-Count': '4' }) },
    );
    await screen.findByRole('list', { name: 'Viewers' });
    const item = (index: number) => within(screen.getByRole('listitem', { name: `Viewer ${outputs[index]?.name}` }));
    // The endpoint is shown without the token; the token is masked until shown.
    expect(item(0).queryByText(`http://edge.example:4242/hls/${name(0)}/index.m3u8`)).not.toBeNull();
    const field = item(0).getByLabelText('Playback token') as HTMLInputElement;
    expect(field.type).toBe('password');
    expect(field.value).toBe(token);
    await user.click(item(0).getByRole('button', { name: 'Show token' }));
    expect(field.type).toBe('text');
    await user.click(item(0).getByRole('button', { name: 'Hide token' }));
    expect(field.type).toBe('password');
    await user.click(item(0).getByRole('button', { name: 'Copy token' }));
    expect(await navigator.clipboard.readText()).toBe(token);

    const copied = async (index: number) => {
      await user.click(item(index).getByRole('button', { name: 'Copy URL' }));
      return navigator.clipboard.readText();
    };
    expect(await copied(0)).toBe(`http://edge.example:4242/hls/${name(0)}/index.m3u8?token=${token}`);
    expect(await copied(1)).toBe(`srt://edge.example:9710?streamid=${name(1)}%3Ftoken%3D${token}`);
    expect(await copied(2)).toBe(`http://edge.example:4242/whep/${name(2)}?token=${token}`);
    expect(await copied(3)).toBe(`rtmp://edge.example:1935/live/${name(3)}?token=${token}`);
  });

  it('says an RTSP stream takes TCP pushes only', async () => {
    renderDashboard({ format: 'RTSP', connection: { uri: 'rtsp://edge.example:8554/live/pt%2Bx' } });
    expect((await screen.findByText(RTSP_TCP_ONLY)).textContent).toBe(RTSP_TCP_ONLY);
  });

  it("shows no token for a Public stream's output, and copies its bare URL", async () => {
    const output = streamOutput(ID, 0);
    const { user } = renderDashboard(
      {},
      { 'GET /api/v1/outputs': () => jsonResponse([output], 200, { 'X-Total-Count': '1' }) },
    );
    const item = within(await screen.findByRole('listitem', { name: `Viewer ${output.name}` }));
    // the node serving the viewers (the ingest node or an edge): the URL names it
    expect(item.getByText('Served by node edge-1')).toBeInstanceOf(HTMLElement);
    expect(item.queryByLabelText('Playback token')).toBeNull();
    expect(item.queryByRole('button', { name: 'Show token' })).toBeNull();
    await user.click(item.getByRole('button', { name: 'Copy URL' }));
    expect(await navigator.clipboard.readText()).toBe(output.connection?.uri);
  });

  it('creates a viewer: RTMP by default, WebRTC in browser mode', async () => {
    const created = streamOutput(ID, 1, { format: 'WebRTC' });
    const { user, mock } = renderDashboard({}, { 'POST /api/v1/outputs': () => jsonResponse(created, 201) });
    await screen.findByTestId('stream-status');
    await user.click(screen.getByRole('button', { name: 'Add viewer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create viewer' });
    expect((within(dialog).getByLabelText('Format') as HTMLSelectElement).value).toBe('RTMP');
    await user.click(within(dialog).getByLabelText('Browser'));
    expect((within(dialog).getByLabelText('Format') as HTMLSelectElement).value).toBe('WebRTC');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mock.requests.find((request) => request.method === 'POST')?.body).toEqual({
      streamId: ID,
      format: 'WebRTC',
      access: 'Public',
    });
  });

  it("creates a viewer with the stream's access by default, or Signed", async () => {
    const created = streamOutput(ID, 1, { access: 'Signed' });
    const { user, mock } = renderDashboard(
      { access: 'Private' },
      { 'POST /api/v1/outputs': () => jsonResponse(created, 201) },
    );
    await screen.findByTestId('stream-status');
    await user.click(screen.getByRole('button', { name: 'Add viewer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create viewer' });
    const access = within(dialog).getByLabelText('Access') as HTMLSelectElement;
    expect(access.value).toBe('Private');
    expect([...access.options].map((option) => option.text)).toEqual([
      'Public',
      'Private',
      'Signed (playback tokens only)',
    ]);
    await user.selectOptions(access, 'Signed (playback tokens only)');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mock.requests.find((request) => request.method === 'POST')?.body).toEqual({
      streamId: ID,
      format: 'RTMP',
      access: 'Signed',
    });
  });

  it("changes a viewer's access live, hides the static token of a Signed one, and reports a refusal", async () => {
    const output = streamOutput(ID, 0, {
      access: 'Private',
      viewer: { ipAddress: null, geoLocation: null, accessToken: 'tok-1', accessTokenRotatedAt: null },
    });
    let current = output;
    const { user, mock } = renderDashboard(
      { access: 'Private' },
      {
        'GET /api/v1/outputs': () => jsonResponse([current], 200, { 'X-Total-Count': '1' }),
        [`PUT /api/v1/outputs/${output.id}`]: ({ body }) => {
          const { access } = body as { access: 'Public' | 'Private' | 'Signed' };
          if (access === 'Public') return errorResponse(500, '');
          current = { ...current, access };
          return jsonResponse(current);
        },
      },
    );
    const item = within(await screen.findByRole('listitem', { name: `Viewer ${output.name}` }));
    expect(item.getByLabelText('Playback token')).not.toBeNull();
    await user.selectOptions(item.getByLabelText('Access'), 'Signed (playback tokens only)');
    await waitFor(() => expect(item.queryByLabelText('Playback token')).toBeNull());
    expect((item.getByLabelText('Access') as HTMLSelectElement).value).toBe('Signed');
    expect(mock.requests.find((request) => request.method === 'PUT')?.body).toEqual({ access: 'Signed' });
    await user.selectOptions(item.getByLabelText('Access'), 'Public');
    expect((await screen.findByRole('alert')).textContent).toBe("Something wrong with the output's access change");
  });

  it('creates an HLS viewer with its latency, offered for HLS only, and changes it live', async () => {
    let current = streamOutput(ID, 1, { format: 'HLS', hlsLatency: 'Low' });
    const { user, mock } = renderDashboard(
      {},
      {
        'GET /api/v1/outputs': () => jsonResponse([current], 200, { 'X-Total-Count': '1' }),
        'POST /api/v1/outputs': () => jsonResponse(current, 201),
        [`PUT /api/v1/outputs/${current.id}`]: ({ body }) => {
          const { hlsLatency } = body as { hlsLatency: 'Standard' | 'Low' };
          if (hlsLatency === 'Low') return errorResponse(500, '');
          current = { ...current, hlsLatency };
          return jsonResponse(current);
        },
      },
    );
    await screen.findByTestId('stream-status');
    await user.click(screen.getByRole('button', { name: 'Add viewer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create viewer' });
    expect(within(dialog).queryByLabelText('HLS latency')).toBeNull();
    await user.selectOptions(within(dialog).getByLabelText('Format'), 'HLS');
    const latency = within(dialog).getByLabelText('HLS latency') as HTMLSelectElement;
    // Low latency by default; Standard stays for players that need MPEG-TS.
    expect(latency.value).toBe('Low');
    expect([...latency.options].map((option) => option.text)).toEqual([
      'Standard (MPEG-TS, any player)',
      'Low latency (LL-HLS)',
    ]);
    // Live rewind needs the node's packaging: offered for Low latency only.
    await user.selectOptions(latency, 'Standard (MPEG-TS, any player)');
    expect(within(dialog).queryByLabelText('DVR window')).toBeNull();
    await user.selectOptions(latency, 'Low latency (LL-HLS)');
    const dvr = within(dialog).getByLabelText('DVR window') as HTMLSelectElement;
    expect([...dvr.options].map((option) => option.text)).toEqual([
      'Off',
      '5 minutes',
      '15 minutes',
      '30 minutes',
      '1 hour',
      '2 hours',
      '4 hours',
    ]);
    await user.selectOptions(dvr, '30 minutes');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(mock.requests.find((request) => request.method === 'POST')?.body).toEqual({
      streamId: ID,
      format: 'HLS',
      access: 'Public',
      hlsLatency: 'Low',
      dvrWindowMinutes: 30,
    });

    const item = within(await screen.findByRole('listitem', { name: `Viewer ${current.name}` }));
    expect((item.getByLabelText('HLS latency') as HTMLSelectElement).value).toBe('Low');
    expect((item.getByLabelText('DVR window') as HTMLSelectElement).value).toBe('0');
    await user.selectOptions(item.getByLabelText('HLS latency'), 'Standard (MPEG-TS, any player)');
    await waitFor(() => expect((item.getByLabelText('HLS latency') as HTMLSelectElement).value).toBe('Standard'));
    expect(mock.requests.find((request) => request.method === 'PUT')?.body).toEqual({ hlsLatency: 'Standard' });
    await user.selectOptions(item.getByLabelText('HLS latency'), 'Low latency (LL-HLS)');
    expect((await screen.findByRole('alert')).textContent).toBe("Something wrong with the output's HLS latency change");
  });

  it('reports a failed viewer creation', async () => {
    const { user } = renderDashboard({}, { 'POST /api/v1/outputs': () => errorResponse(500, '') });
    await screen.findByTestId('stream-status');
    await user.click(screen.getByRole('button', { name: 'Add viewer' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Create' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Something wrong with output creation');
  });
});
