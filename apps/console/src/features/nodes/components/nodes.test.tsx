import { emptyResponse, errorResponse, type Handler, jsonResponse } from '@streamcloud/api-client/testing';
import type { Node, NodeDrain } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { LOCATION_UNDETERMINED } from '@/components/location/location-note';
import { LOCATION_LOOKUP_DEBOUNCE_MS } from '@/data/location/use-location-lookup';
import { NODES_POLL_MS } from '@/data/nodes/list-poll';
import { adminAccount, whoAmI } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { groupNodesByRegion } from '../utils/region-groups';

let sequence = 0;
function node(name: string, code: string | null, extra: Partial<Node> = {}): Node {
  sequence += 1;
  return {
    id: `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`,
    name,
    connection: { protocol: 'HTTP', hostname: `${name}.example`, port: 4242 },
    settings: { bandwidthLimitMbps: 1000, publicIPv4: null, privateIPv4: null },
    location: { code, description: code ? `${name} city` : null, geo: null },
    opened: false,
    enabled: true,
    load: null,
    reporting: 'NeverReported',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    ...extra,
  };
}

const edge = node('edge-1', 'EU', {
  settings: { bandwidthLimitMbps: 2500, publicIPv4: '203.0.113.1', privateIPv4: null },
  location: { code: 'EU', description: 'Frankfurt', geo: { latitude: 50.1, longitude: 8.7 } },
});
const NODE_URL = `/api/v1/nodes/${edge.id}`;

function renderNodes(path: string, handlers: Record<string, Handler> = {}) {
  return renderApp({
    path,
    currentToken: 'admin-token',
    handlers: {
      'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(adminAccount)),
      [`GET ${NODE_URL}`]: () => jsonResponse(edge),
      [`GET ${NODE_URL}/drain`]: () => jsonResponse(drainState()),
      ...handlers,
    },
  });
}

function drainState(changes: Partial<NodeDrain> = {}): NodeDrain {
  return {
    draining: false,
    since: null,
    liveStreams: 1,
    otherStreams: 2,
    edgeOutputs: 0,
    drained: false,
    ...changes,
  };
}

const HEALTH = {
  disks: [{ path: '/srv/media', freeBytes: 2e9, totalBytes: 1e11 }],
  encoderCpuPercent: 42.4,
  uploadBacklog: { files: 3, bytes: 1.2e9 },
  problems: [],
};

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

let consoleError: MockInstance<typeof console.error>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => consoleError.mockRestore());

describe('groupNodesByRegion', () => {
  it('orders EU, NA, SA, AS, AF, AN, OC, then other codes, then nodes without a code', () => {
    const nodes = [
      node('x', null),
      node('oc', 'OC'),
      node('zz', 'ZZ'),
      node('as', 'as'),
      node('eu-2', 'EU'),
      node('an', 'AN'),
      node('af', 'AF'),
      node('mars', 'MARS'),
      node('sa', 'SA'),
      node('na', 'NA'),
      node('eu-1', 'eu'),
    ];
    const groups = groupNodesByRegion(nodes);
    expect(groups.map((group) => group.title)).toEqual([
      'Europe (EU)',
      'North America (NA)',
      'South America (SA)',
      'Asia (AS)',
      'Africa (AF)',
      'Antarctica (AN)',
      'Oceania (OC)',
      'MARS',
      'ZZ',
      'No region',
    ]);
    expect(groups[0]?.nodes.map((item) => item.name)).toEqual(['eu-2', 'eu-1']);
  });
});

describe('/nodes', () => {
  it('lists the nodes under one heading per region, rows linking to the node', async () => {
    renderNodes('/nodes', {
      'GET /api/v1/nodes': () =>
        jsonResponse([
          node('tokyo', 'AS'),
          edge,
          node('toronto', 'NA', {
            load: {
              cpuPercent: 12,
              bandwidthMbps: 30,
              sessions: 4,
              health: { ...HEALTH, problems: ['Disk nearly full', 'Encoders use 95 % of the CPU'] },
              reportedAt: '2025-01-01T00:00:00.000Z',
            },
          }),
        ]),
    });
    await screen.findByRole('heading', { level: 1, name: 'Nodes' });
    await screen.findByRole('link', { name: 'edge-1' });
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings).toEqual(['Europe (EU)', 'North America (NA)', 'Asia (AS)']);
    expect(screen.getByRole('link', { name: 'edge-1' }).getAttribute('href')).toBe(`/nodes/view/${edge.id}`);
    expect(screen.getByRole('link', { name: 'Add node' }).getAttribute('href')).toBe('/nodes/create');
    const toronto = within(screen.getByRole('region', { name: 'North America (NA)' }));
    toronto.getByText('CPU 12 % · 30 mbps · 4 sessions');
    expect(toronto.getByText('2 problems').getAttribute('title')).toBe(
      'Disk nearly full\nEncoders use 95 % of the CPU',
    );
    expect(screen.getAllByText(/problems?$/)).toHaveLength(1);
  });

  it('says so when there is no node', async () => {
    renderNodes('/nodes', { 'GET /api/v1/nodes': () => jsonResponse([]) });
    await screen.findByText('No nodes yet.');
  });

  it('reads the nodes again every 5 s: a node that stops reporting shows Offline, then Reporting again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let reporting: Node['reporting'] = 'Reporting';
      renderNodes('/nodes', { 'GET /api/v1/nodes': () => jsonResponse([{ ...edge, reporting }]) });
      await screen.findByText('Reporting');
      reporting = 'Silent';
      await vi.advanceTimersByTimeAsync(NODES_POLL_MS);
      expect((await screen.findByText('Offline')).getAttribute('title')).toMatch(/^No report for NODE_SILENCE_SECONDS/);
      reporting = 'Reporting';
      await vi.advanceTimersByTimeAsync(NODES_POLL_MS);
      await screen.findByText('Reporting');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the node form looks up the location of its address', () => {
  const locationCalls = (requests: { url: URL }[]) =>
    requests.filter((request) => request.url.pathname === '/api/v1/info/location');
  const noteText = () => screen.getByTestId('node-location-lookup').textContent?.trim();

  it('looks up a typed IP hostname 500 ms after typing stops and fills the location fields', async () => {
    const { user, mock } = renderNodes('/nodes/create', {
      'GET /api/v1/info/location': (request) =>
        request.url.searchParams.get('ipAddress') === '81.2.69.160'
          ? jsonResponse({
              ipAddress: '81.2.69.160',
              description: 'London, GB',
              geo: { latitude: 51.5, longitude: -0.09 },
            })
          : errorResponse(404, 'Location not found'),
    });
    // Typed in two bursts (one event each, so a loaded machine cannot stretch them past the debounce): the first is
    // an address already (81.2.69.1), looked up only if the typing had stopped.
    const hostname = await screen.findByLabelText('Hostname');
    await user.click(hostname);
    await user.paste('81.2.69.1');
    await user.paste('60');
    expect(noteText()).toBe('Looking up the location...');
    expect(locationCalls(mock.requests)).toHaveLength(0);
    await waitFor(() => expect(input('Location description').value).toBe('London, GB'));
    expect(input('Latitude').value).toBe('51.5');
    expect(input('Longitude').value).toBe('-0.09');
    expect(noteText()).toBe('London, GB');
    // One lookup for the settled address, none for what was typed on the way.
    expect(locationCalls(mock.requests).map((request) => request.url.searchParams.get('ipAddress'))).toEqual([
      '81.2.69.160',
    ]);
    expect(LOCATION_LOOKUP_DEBOUNCE_MS).toBe(500);
  });

  it('says the location is undetermined when the lookup fails, and leaves the fields as they were', async () => {
    const { user } = renderNodes('/nodes/create', {
      'GET /api/v1/info/location': () => errorResponse(404, 'Location not found'),
    });
    await user.type(await screen.findByLabelText('Location description'), 'Rack 4');
    await user.type(input('Hostname'), '10.1.2.3');
    await waitFor(() => expect(noteText()).toBe(LOCATION_UNDETERMINED));
    expect(input('Location description').value).toBe('Rack 4');
    expect(input('Latitude').value).toBe('');
  });

  it('looks up the public IPv4 of a node reached by a DNS name; a DNS name alone is undetermined', async () => {
    const { user, mock } = renderNodes('/nodes/create', {
      'GET /api/v1/info/location': () =>
        jsonResponse({
          ipAddress: '203.0.113.9',
          description: 'Toronto, CA',
          geo: { latitude: 43.7, longitude: -79.4 },
        }),
    });
    await user.type(await screen.findByLabelText('Hostname'), 'edge.example.net');
    await waitFor(() => expect(noteText()).toBe(LOCATION_UNDETERMINED));
    expect(locationCalls(mock.requests)).toHaveLength(0);
    await user.type(input('Public IPv4'), '203.0.113.9');
    await waitFor(() => expect(input('Location description').value).toBe('Toronto, CA'));
    expect(locationCalls(mock.requests)[0]?.url.searchParams.get('ipAddress')).toBe('203.0.113.9');
  });

  it('keeps a description the admin typed, fills the rest, and follows a new address', async () => {
    const places: Record<string, object> = {
      '81.2.69.160': { ipAddress: '81.2.69.160', description: 'London, GB', geo: { latitude: 51.5, longitude: -0.09 } },
      '203.0.113.9': {
        ipAddress: '203.0.113.9',
        description: 'Toronto, CA',
        geo: { latitude: 43.7, longitude: -79.4 },
      },
    };
    const { user } = renderNodes('/nodes/create', {
      'GET /api/v1/info/location': (request) => jsonResponse(places[request.url.searchParams.get('ipAddress') ?? '']),
    });
    await user.type(await screen.findByLabelText('Location description'), 'Rack 4');
    await user.type(input('Hostname'), '81.2.69.160');
    await waitFor(() => expect(input('Latitude').value).toBe('51.5'));
    expect(input('Location description').value).toBe('Rack 4');
    await user.clear(input('Hostname'));
    await user.type(input('Hostname'), '203.0.113.9');
    await waitFor(() => expect(input('Latitude').value).toBe('43.7'));
    expect(input('Longitude').value).toBe('-79.4');
    expect(input('Location description').value).toBe('Rack 4');
  });

  it('does not look up a stored node until its address is edited', async () => {
    const { mock } = renderNodes(`/nodes/view/${edge.id}`);
    await screen.findByDisplayValue('Frankfurt');
    expect(screen.queryByTestId('node-location-lookup')).toBeNull();
    expect(locationCalls(mock.requests)).toHaveLength(0);
  });
});

describe('/nodes/create', () => {
  it('starts from the defaults: HTTP, 4242, 1000 Mbps, not opened, not enabled', async () => {
    renderNodes('/nodes/create');
    await screen.findByRole('heading', { level: 1, name: 'New node' });
    expect(input('Protocol').value).toBe('HTTP');
    expect(input('Port').value).toBe('4242');
    expect(input('Bandwidth limit (Mbps)').value).toBe('1000');
    expect(input('Opened').checked).toBe(false);
    expect(input('Enabled').checked).toBe(false);
    for (const label of ['Name', 'Hostname', 'Public IPv4', 'Private IPv4', 'Location code']) {
      expect(input(label).value).toBe('');
    }
    expect(input('Location description').value).toBe('');
  });

  it('shows the section 5 messages and sends nothing while invalid', async () => {
    const { user, mock } = renderNodes('/nodes/create');
    await user.clear(await screen.findByLabelText('Port'));
    await user.clear(input('Protocol'));
    await user.type(input('Protocol'), 'X'.repeat(17));
    await user.clear(input('Bandwidth limit (Mbps)'));
    await user.type(input('Bandwidth limit (Mbps)'), '-1');
    await user.type(input('Location code'), 'C'.repeat(33));
    await user.type(input('Latitude'), '12');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Name is required');
    screen.getByText('Hostname is required');
    screen.getByText('Port is required');
    screen.getByText('Protocol must be at most 16 characters');
    screen.getByText('Bandwidth limit must be at least 0');
    screen.getByText('Location code must be at most 32 characters');
    screen.getByText('Longitude is required');
    expect(mock.requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it("saves, alerts 'OK', opens the new node and shows its token once", async () => {
    const created = node('new-node', 'NA');
    const { user, mock, location } = renderNodes('/nodes/create', {
      'POST /api/v1/nodes': () => jsonResponse({ ...created, token: 'scn_secret-token' }, 201),
      [`GET /api/v1/nodes/${created.id}`]: () => jsonResponse(created),
      [`GET /api/v1/nodes/${created.id}/drain`]: () => jsonResponse(drainState()),
    });
    await user.type(await screen.findByLabelText('Name'), ' new-node ');
    await user.type(input('Hostname'), 'new-node.example');
    await user.type(input('Location code'), 'NA');
    await user.click(input('Enabled'));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(location()).toBe(`/nodes/view/${created.id}`));
    expect(((await screen.findByLabelText('Node token')) as HTMLInputElement).value).toBe('scn_secret-token');
    expect(alerts()).toContain('OK');
    expect(mock.requests.find((request) => request.method === 'POST')?.body).toEqual({
      name: 'new-node',
      connection: { protocol: 'HTTP', hostname: 'new-node.example', port: 4242 },
      settings: { bandwidthLimitMbps: 1000, publicIPv4: null, privateIPv4: null },
      location: { code: 'NA', description: null, geo: null },
      opened: false,
      enabled: true,
    });
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByLabelText('Node token')).toBeNull();
  });

  it('sends a failed save only to the console', async () => {
    const { user } = renderNodes('/nodes/create', { 'POST /api/v1/nodes': () => errorResponse(500, 'Broken') });
    await user.type(await screen.findByLabelText('Name'), 'n');
    await user.type(input('Hostname'), 'h');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(consoleError).toHaveBeenCalled());
    expect(alerts()).toEqual([]);
  });
});

describe('/nodes/view/{id}', () => {
  it("shows the node's fields and saves changes with 'OK'", async () => {
    const { user, mock } = renderNodes(`/nodes/view/${edge.id}`, {
      [`PUT ${NODE_URL}`]: ({ body }) => jsonResponse({ ...edge, ...(body as object) }),
    });
    await screen.findByRole('heading', { level: 1, name: 'edge-1' });
    expect(input('Hostname').value).toBe('edge-1.example');
    expect(input('Bandwidth limit (Mbps)').value).toBe('2500');
    expect(input('Public IPv4').value).toBe('203.0.113.1');
    expect(input('Location description').value).toBe('Frankfurt');
    expect(input('Latitude').value).toBe('50.1');
    expect(input('Enabled').checked).toBe(true);
    expect(screen.queryByLabelText('Node token')).toBeNull();

    await user.click(input('Opened'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'OK');
    const put = mock.requests.find((request) => request.method === 'PUT');
    expect(put?.body).toMatchObject({
      opened: true,
      enabled: true,
      location: { geo: { latitude: 50.1, longitude: 8.7 } },
    });
  });

  it("refreshes from the chosen mode with 'OK'; a failure goes to the console only", async () => {
    let fail = false;
    const { user, mock } = renderNodes(`/nodes/view/${edge.id}`, {
      [`POST ${NODE_URL}/refresh`]: ({ body }) =>
        fail ? errorResponse(502, 'unreachable') : jsonResponse({ ...(body as object), result: null }),
    });
    await user.selectOptions(await screen.findByLabelText('Refresh mode'), 'Streams');
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'OK');
    expect(mock.requests.find((request) => request.url.pathname.endsWith('/refresh'))?.body).toEqual({
      mode: 'Streams',
    });

    fail = true;
    await user.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(consoleError).toHaveBeenCalled());
    expect(alerts()).toEqual([]);
  });

  it('shows the metadata, or the spec text when the request fails', async () => {
    let fail = false;
    const { user } = renderNodes(`/nodes/view/${edge.id}`, {
      [`GET ${NODE_URL}/metadata`]: () =>
        fail
          ? errorResponse(502, 'Node edge-1 (edge-1.example:4242) is unreachable: connection refused')
          : jsonResponse({ serverId: 'srv-7', protocols: ['RTMP', 'SRT'] }),
    });
    await user.click(await screen.findByRole('button', { name: 'Metadata' }));
    const metadata = within(await screen.findByRole('region', { name: 'Metadata' }));
    metadata.getByText('serverId');
    metadata.getByText('srv-7');

    fail = true;
    await user.click(screen.getByRole('button', { name: 'Metadata' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Something wrong with node metadata request',
    );
    screen.getByText('Node edge-1 (edge-1.example:4242) is unreachable: connection refused');
  });

  it('re-issues the token after a confirmation', async () => {
    const { user } = renderNodes(`/nodes/view/${edge.id}`, {
      [`POST ${NODE_URL}/token`]: () => jsonResponse({ token: 'scn_new' }),
    });
    await user.click(await screen.findByRole('button', { name: 'Re-issue token' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(input('Node token').value).toBe('scn_new'));
  });

  it('deletes after a confirmation and goes back to the list', async () => {
    const { user, mock, location } = renderNodes(`/nodes/view/${edge.id}`, {
      [`DELETE ${NODE_URL}`]: () => emptyResponse(),
      'GET /api/v1/nodes': () => jsonResponse([]),
    });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(mock.requests.some((request) => request.method === 'DELETE')).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(location()).toBe('/nodes'));
    expect(mock.requests.some((request) => request.method === 'DELETE')).toBe(true);
  });

  it("shows the node's health: its problems, then the figures", async () => {
    const reported = {
      ...edge,
      load: {
        cpuPercent: 97,
        bandwidthMbps: 1,
        sessions: 0,
        health: { ...HEALTH, problems: ['3 recordings wait to upload (1.2 GB): is their storage reachable?'] },
        reportedAt: '2025-01-01T10:00:00.000Z',
      },
    };
    renderNodes(`/nodes/view/${edge.id}`, { [`GET ${NODE_URL}`]: () => jsonResponse(reported) });
    const card = within(
      await screen.findByRole('heading', { name: 'Health' }).then((h) => h.parentElement as HTMLElement),
    );
    expect(
      within(card.getByRole('list', { name: 'Problems' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['3 recordings wait to upload (1.2 GB): is their storage reachable?']);
    const figures = within(card.getByRole('table', { name: 'Health figures' }));
    expect(figures.getByRole('row', { name: 'Disk /srv/media 2 GB free of 100 GB' })).toBeDefined();
    expect(figures.getByRole('row', { name: "Encoders' CPU 42 %" })).toBeDefined();
    expect(figures.getByRole('row', { name: 'Recordings waiting to upload 3 (1.2 GB)' })).toBeDefined();
  });

  it('says when a node has not reported', async () => {
    renderNodes(`/nodes/view/${edge.id}`);
    await screen.findByText('No report yet.');
  });

  it('says when a node reports no health', async () => {
    const load = { cpuPercent: 1, bandwidthMbps: 0, sessions: 0, health: null, reportedAt: '2025-01-01T10:00:00.000Z' };
    renderNodes(`/nodes/view/${edge.id}`, { [`GET ${NODE_URL}`]: () => jsonResponse({ ...edge, load }) });
    await screen.findByText('This node does not report its health (an older node version).');
  });

  it('says so when the node does not exist', async () => {
    renderNodes(`/nodes/view/${edge.id}`, { [`GET ${NODE_URL}`]: () => errorResponse(404, 'Node not found') });
    await screen.findByText('This node does not exist.');
  });

  it('drains the node after a confirmation, shows what is left, and stops draining', async () => {
    const draining = drainState({ draining: true, since: '2025-01-01T10:00:00.000Z' });
    const { user, mock } = renderNodes(`/nodes/view/${edge.id}`, {
      [`POST ${NODE_URL}/drain`]: () => jsonResponse(draining),
      [`DELETE ${NODE_URL}/drain`]: () => jsonResponse(drainState()),
    });
    await screen.findByText('Takes new streams and viewers. On it: 1 live stream, 2 other streams, 0 viewer outputs.');
    await user.click(screen.getByRole('button', { name: 'Drain' }));
    const dialog = await screen.findByRole('dialog', { name: 'Drain node' });
    await user.click(within(dialog).getByRole('button', { name: 'Ok' }));
    await screen.findByText(
      /^Draining since .+: 1 live stream, 2 other streams, 0 viewer outputs left\. Live streams move once their push ends\.$/,
    );
    expect(mock.requests.filter((request) => request.method === 'POST').map((request) => request.url.pathname)).toEqual(
      [`${NODE_URL}/drain`],
    );
    await user.click(screen.getByRole('button', { name: 'Stop draining' }));
    await screen.findByRole('button', { name: 'Drain' });
    expect(mock.requests.some((request) => request.method === 'DELETE')).toBe(true);
  });

  it('says when the node is drained, and shows a refusal in an alert', async () => {
    const { user } = renderNodes(`/nodes/view/${edge.id}`, {
      [`GET ${NODE_URL}/drain`]: () =>
        jsonResponse(
          drainState({
            draining: true,
            since: '2025-01-01T10:00:00.000Z',
            liveStreams: 0,
            otherStreams: 0,
            drained: true,
          }),
        ),
      [`DELETE ${NODE_URL}/drain`]: () => jsonResponse({}, 500),
    });
    await screen.findByText(/^Drained since .+: nothing runs here, the node may be stopped\.$/);
    await user.click(screen.getByRole('button', { name: 'Stop draining' }));
    await waitFor(() => expect(alerts()).toContain('Something wrong with node draining'));
  });
});
