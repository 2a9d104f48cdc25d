import { emptyResponse, type Handler, jsonResponse } from '@streamcloud/api-client/testing';
import { RELAY_MESSAGES, type Relay } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deliveriesResponse, streamInput, webhookDelivery } from '@/test/fixtures';
import { renderAsUser } from '@/test/render-app';
import { renderPiece } from '@/test/render-piece';
import { StreamRelaysList } from './stream-relays-list';

const STREAM_ID = '00000000-0000-4000-8000-000000000052';
const STREAM = streamInput(STREAM_ID);

const CAPTURE: Relay['capture'] = {
  source: 'Incoming',
  tracks: [
    { type: 'Video', idx: null, codec: null, resolution: null, bitrate: null },
    { type: 'Audio', idx: null, codec: null, resolution: null, bitrate: null },
  ],
};

let counter = 0;
const base = () => {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    streamId: STREAM_ID,
    autostart: false,
    state: 'Relaying' as const,
    callbackUri: null,
    capture: CAPTURE,
    uploaded: 2_500,
    messages: [],
    stopRequested: false,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
};
const rtmp = (changes: Partial<Relay> = {}, server = 'rtmp://live.example.com/app'): Relay =>
  ({ ...base(), format: 'RTMP', output: { server, keySet: true }, ...changes }) as Relay;
const udp = (changes: Partial<Relay> = {}, ipAddress = '239.1.1.1'): Relay =>
  ({ ...base(), format: 'UDPTS', output: { ipAddress, port: 8888 }, ...changes }) as Relay;

const LIST_URL = `GET /api/v1/relays/stream/${STREAM_ID}`;

function renderDashboard(list: Relay[], handlers: Record<string, Handler> = {}) {
  return renderAsUser(`/streams/relay/${STREAM_ID}`, {
    [LIST_URL]: () => jsonResponse(list),
    [`GET /api/v1/inputs/${STREAM_ID}`]: () => jsonResponse(STREAM),
    ...handlers,
  });
}

const item = (id: string) => document.querySelector(`[data-relay-id="${id}"]`) as HTMLElement;
const button = (scope: HTMLElement, name: string) => within(scope).getByRole('button', { name }) as HTMLButtonElement;
const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

describe('/streams/relay/{id}', () => {
  it('lists autostarting relays first; the RTMP key only masked', async () => {
    const plain = udp();
    const auto = rtmp({ autostart: true });
    renderDashboard([plain, auto]);
    const groups = await screen.findAllByRole('region');
    expect(groups.map((group) => group.getAttribute('aria-label'))).toEqual(['Autostarting', 'Other relays']);
    within(groups[0] as HTMLElement).getByText('rtmp://live.example.com/app');
    within(groups[0] as HTMLElement).getByText('Stream key: ••••••••');
    within(groups[1] as HTMLElement).getByText('udp://239.1.1.1:8888');
  });

  it('enables Stop only in Relaying (once) and Delete only in Completed or Error', async () => {
    const relaying = udp();
    const completed = udp({ state: 'Completed' });
    const failed = udp({ state: 'Error' });
    const { user } = renderDashboard([relaying, completed, failed], {
      [`PUT /api/v1/relays/${relaying.id}/stop`]: () => jsonResponse(relaying),
    });
    await screen.findAllByText('udp://239.1.1.1:8888');
    expect([!button(item(relaying.id), 'Stop').disabled, !button(item(relaying.id), 'Delete').disabled]).toEqual([
      true,
      false,
    ]);
    for (const finished of [completed, failed]) {
      expect([!button(item(finished.id), 'Stop').disabled, !button(item(finished.id), 'Delete').disabled]).toEqual([
        false,
        true,
      ]);
    }
    await user.click(button(item(relaying.id), 'Stop'));
    await waitFor(() => expect(button(item(relaying.id), 'Stop').disabled).toBe(true));
  });

  it("says 'Something wrong with relay stop' and 'Something wrong with relay deleting' without a server message", async () => {
    const relaying = udp();
    const completed = udp({ state: 'Completed' });
    const { user } = renderDashboard([relaying, completed], {
      [`PUT /api/v1/relays/${relaying.id}/stop`]: () => jsonResponse({}, 500),
      [`DELETE /api/v1/relays/${completed.id}`]: () => jsonResponse({}, 500),
    });
    await screen.findAllByText('udp://239.1.1.1:8888');
    await user.click(button(item(relaying.id), 'Stop'));
    await waitFor(() => expect(alerts()).toContain('Something wrong with relay stop'));
    await user.click(button(item(completed.id), 'Delete'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Do you really want to delete relay? This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(alerts()).toContain('Something wrong with relay deleting'));
  });

  it('deletes after confirming; the info view loads the relay and its stream', async () => {
    const done = rtmp({ state: 'Completed' });
    let deleted = false;
    const { user } = renderDashboard([done], {
      [`GET /api/v1/relays/${done.id}`]: () => jsonResponse(done),
      'GET /api/v1/webhooks/deliveries': deliveriesResponse(
        webhookDelivery({
          type: 'relay.completed',
          resourceType: 'relay',
          resourceId: done.id,
          status: 'Failed',
          attempts: 7,
          lastStatusCode: 503,
          lastError: 'HTTP 503: busy',
        }),
      ),
      [`DELETE /api/v1/relays/${done.id}`]: () => {
        deleted = true;
        return emptyResponse();
      },
    });
    await screen.findByText('rtmp://live.example.com/app');
    await user.click(button(item(done.id), 'Info'));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Main stage');
    within(dialog).getByText('••••••••');
    within(dialog).getByText('2.5 kB');
    const callbacks = within(within(dialog).getByRole('region', { name: 'Callbacks' }));
    await callbacks.findByText('relay.completed');
    callbacks.getByText('Failed');
    callbacks.getByText('HTTP 503: busy');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(button(item(done.id), 'Delete'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(deleted).toBe(true));
  });
});

describe('relay form', () => {
  const openCreate = async (handlers: Record<string, Handler> = {}) => {
    const rendered = renderDashboard([], handlers);
    await screen.findByText('No relays yet.');
    await rendered.user.click(screen.getByRole('button', { name: 'Add relay' }));
    const form = await screen.findByRole('form', { name: 'Relay' });
    return { ...rendered, form: within(form) };
  };
  const submit = (form: ReturnType<typeof within>) => form.getByRole('button', { name: 'Create' }) as HTMLButtonElement;

  it('RTMP: the server is required; submit disabled while invalid; a blank key is not sent', async () => {
    let body: unknown;
    const { form, user } = await openCreate({
      'POST /api/v1/relays': (request) => {
        body = request.body;
        return jsonResponse(rtmp(), 201);
      },
    });
    expect((form.getByLabelText('Format') as HTMLSelectElement).value).toBe('RTMP');
    expect((form.getByLabelText('Autostart') as HTMLInputElement).checked).toBe(false);
    await waitFor(() => expect(submit(form).disabled).toBe(true));
    const server = form.getByLabelText('Server');
    await user.type(server, 'x');
    await form.findByText(RELAY_MESSAGES.serverUrl);
    await user.clear(server);
    await form.findByText(RELAY_MESSAGES.serverRequired);
    await user.type(server, 'rtmp://live.example.com/app');
    await user.type(form.getByLabelText('Callback URI'), '   ');
    await waitFor(() => expect(submit(form).disabled).toBe(false));
    await user.click(submit(form));
    await waitFor(() => expect(body).toBeDefined());
    expect(body).toEqual({
      streamId: STREAM_ID,
      autostart: false,
      format: 'RTMP',
      output: { server: 'rtmp://live.example.com/app' },
      capture: CAPTURE,
    });
  });

  it('CMAF: the endpoint is required, timescales 0 to 96000', async () => {
    const { form, user } = await openCreate();
    await user.selectOptions(form.getByLabelText('Format'), 'CMAF');
    const endpoint = form.getByLabelText('Endpoint');
    await user.type(endpoint, 'h');
    await user.clear(endpoint);
    await form.findByText(RELAY_MESSAGES.endpointRequired);
    await user.type(endpoint, 'https://ingest.example.com/pub');
    await user.type(form.getByLabelText('Video timescale'), '96001');
    await form.findByText(RELAY_MESSAGES.timescale('Video timescale'));
    expect(submit(form).disabled).toBe(true);
    await user.clear(form.getByLabelText('Video timescale'));
    await user.type(form.getByLabelText('Video timescale'), '90000');
    await waitFor(() => expect(submit(form).disabled).toBe(false));
  });

  it('UDP: a dotted IPv4 address; the port 0 to 65535, 8888 by default', async () => {
    let body: unknown;
    const { form, user } = await openCreate({
      'POST /api/v1/relays': (request) => {
        body = request.body;
        return jsonResponse(udp(), 201);
      },
    });
    await user.selectOptions(form.getByLabelText('Format'), 'UDP (MPEG-TS)');
    expect((form.getByLabelText('Port') as HTMLInputElement).value).toBe('8888');
    await user.type(form.getByLabelText('IP address'), '300.1.1.1');
    await form.findByText(RELAY_MESSAGES.ipAddress);
    await user.clear(form.getByLabelText('IP address'));
    await user.type(form.getByLabelText('IP address'), '239.1.1.1');
    await user.clear(form.getByLabelText('Port'));
    await user.type(form.getByLabelText('Port'), '65536');
    await form.findByText(RELAY_MESSAGES.port);
    await user.clear(form.getByLabelText('Port'));
    await user.type(form.getByLabelText('Port'), '5000');
    await user.selectOptions(form.getByLabelText('Capture source'), 'Outgoing');
    await waitFor(() => expect(submit(form).disabled).toBe(false));
    await user.click(submit(form));
    await waitFor(() => expect(body).toBeDefined());
    expect(body).toMatchObject({
      format: 'UDPTS',
      output: { ipAddress: '239.1.1.1', port: 5000 },
      capture: { source: 'Outgoing' },
    });
  });

  it('refuses a callback URI over 255 characters', async () => {
    const { form, user } = await openCreate();
    await user.click(form.getByLabelText('Callback URI'));
    await user.paste(`https://x.example/${'a'.repeat(250)}`);
    await form.findByText('Callback URI must be at most 255 characters');
  });

  it("says 'Something wrong with relay creation' when saving fails without a message", async () => {
    const { form, user } = await openCreate({ 'POST /api/v1/relays': () => jsonResponse({}, 500) });
    await user.type(form.getByLabelText('Server'), 'rtmp://x.example/app');
    await waitFor(() => expect(submit(form).disabled).toBe(false));
    await user.click(submit(form));
    await waitFor(() => expect(alerts()).toContain('Something wrong with relay creation'));
  });

  it('edits with format and autostart locked and the key masked; a blank key keeps the stored one', async () => {
    const existing = rtmp({ autostart: true, capture: { ...CAPTURE, source: 'Outgoing' } });
    let body: unknown;
    const { user } = renderDashboard([existing], {
      [`PUT /api/v1/relays/${existing.id}`]: (request) => {
        body = request.body;
        return jsonResponse(existing);
      },
    });
    await screen.findByText('rtmp://live.example.com/app');
    await user.click(button(item(existing.id), 'Edit'));
    const form = within(await screen.findByRole('form', { name: 'Relay' }));
    expect((form.getByLabelText('Format') as HTMLSelectElement).disabled).toBe(true);
    expect((form.getByLabelText('Autostart') as HTMLInputElement).disabled).toBe(true);
    expect((form.getByLabelText('Autostart') as HTMLInputElement).checked).toBe(true);
    const key = form.getByLabelText('Stream key') as HTMLInputElement;
    expect(key.value).toBe('');
    expect(key.type).toBe('password');
    expect(key.placeholder).toBe('•••••••• (hidden)');
    expect((form.getByLabelText('Capture source') as HTMLSelectElement).value).toBe('Outgoing');
    await user.click(form.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(body).toBeDefined());
    expect(body).toEqual({
      format: 'RTMP',
      output: { server: 'rtmp://live.example.com/app' },
      capture: { ...CAPTURE, source: 'Outgoing' },
    });
  });

  it("says 'Something wrong with relay update' when an update fails without a message", async () => {
    const existing = udp();
    const { user } = renderDashboard([existing], {
      [`PUT /api/v1/relays/${existing.id}`]: () => jsonResponse({}, 500),
    });
    await screen.findByText('udp://239.1.1.1:8888');
    await user.click(button(item(existing.id), 'Edit'));
    const form = within(await screen.findByRole('form', { name: 'Relay' }));
    await user.click(form.getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(alerts()).toContain('Something wrong with relay update'));
  });
});

describe('StreamRelaysList', () => {
  it('lists the relays, autostarting first, with a link to the relay dashboard', async () => {
    renderPiece(<StreamRelaysList streamId={STREAM_ID} />, {
      [LIST_URL]: () => jsonResponse([udp(), rtmp({ autostart: true })]),
    });
    await screen.findByText('rtmp://live.example.com/app');
    const rows = screen.getAllByRole('listitem').map((row) => row.textContent ?? '');
    expect(rows[0]).toContain('RTMP');
    expect(rows[1]).toContain('udp://239.1.1.1:8888');
    expect(screen.getByRole('link', { name: 'Manage relays' }).getAttribute('href')).toBe(
      `/streams/relay/${STREAM_ID}`,
    );
  });
});
