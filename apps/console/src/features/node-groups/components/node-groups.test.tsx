import {
  emptyResponse,
  errorResponse,
  type Handler,
  jsonResponse,
  networkFailure,
} from '@streamcloud/api-client/testing';
import type { Node, NodeGroup, PersistentNodeCandidate, ScalingRule } from '@streamcloud/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { adminAccount, userAccount, whoAmI } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { groupByOwner, sortGroups } from '../utils/format';

const AT = '2025-01-01T00:00:00.000Z';
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const node = (n: number, name: string, overrides: Partial<Node> = {}): Node => ({
  id: id(100 + n),
  name,
  connection: { protocol: 'HTTP', hostname: `${name}.example.net`, port: 4242 },
  settings: { bandwidthLimitMbps: 1000, publicIPv4: null, privateIPv4: null },
  location: { code: 'EU', description: 'Frankfurt', geo: null },
  opened: true,
  enabled: false,
  load: null,
  reporting: 'Reporting',
  createdAt: AT,
  updatedAt: AT,
  ...overrides,
});

const RULE: ScalingRule = {
  id: id(200),
  enabled: true,
  actionTimeout: 0,
  condition: { type: 'CPUGroupAvg', settings: { type: 'Liner', comparison: 'More', value: 80, duration: 60 } },
  action: { type: 'Increase', settings: { provider: 'AWS', value: null, bandwidthLimitMbps: 1000, amount: 1 } },
  lastActionAt: null,
};

const group = (n: number, overrides: Partial<NodeGroup> = {}): NodeGroup => ({
  id: id(n),
  name: `Group ${n}`,
  description: null,
  assignment: 'Common',
  ownerId: null,
  owner: null,
  onResourcesChangeCallbackUri: null,
  scalable: false,
  scalingRules: [],
  resources: [],
  createdAt: AT,
  updatedAt: AT,
  ...overrides,
});

const EDGE = node(1, 'edge-1');
const SPARE = node(2, 'spare-1', { opened: false, enabled: true });
const ALLOCATED = node(3, 'edge-eu-aws-1', { location: { code: null, description: 'AWS eu-west-1', geo: null } });
const DASHBOARD = group(1, {
  name: 'Edge EU',
  assignment: 'Outgoing',
  description: 'Frankfurt edge',
  ownerId: userAccount.id,
  owner: { id: userAccount.id, username: 'alice' },
  scalingRules: [RULE],
  resources: [
    { id: id(301), type: 'Allocated', node: ALLOCATED, provider: 'AWS', externalId: 'i-1', createdAt: AT },
    { id: id(300), type: 'Persistent', node: EDGE, provider: null, externalId: null, createdAt: AT },
  ],
});
const GROUP_URL = `/api/v1/node-groups/${DASHBOARD.id}`;

function render(path: string, account = adminAccount, handlers: Record<string, Handler> = {}) {
  return renderApp({
    path,
    currentToken: 'token',
    handlers: {
      'GET /api/v1/accounts/whoami': () => jsonResponse(whoAmI(account)),
      [`GET ${GROUP_URL}`]: () => jsonResponse(DASHBOARD),
      [`GET ${GROUP_URL}/scaling-events`]: () => jsonResponse([]),
      ...handlers,
    },
  });
}

const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);

describe('formatting and ordering', () => {
  it('sorts by assignment then name, and groups by owner sorted by username', () => {
    const groups = [
      group(1, { name: 'b', assignment: 'Outgoing' }),
      group(2, { name: 'a', assignment: 'Outgoing' }),
      group(3, { name: 'z', assignment: 'Common' }),
      group(4, { name: 'y', ownerId: id(9), owner: { id: id(9), username: 'zoe' } }),
      group(5, { name: 'x', ownerId: id(8), owner: { id: id(8), username: 'Adam' } }),
    ];
    expect(sortGroups(groups).map((g) => g.name)).toEqual(['x', 'y', 'z', 'a', 'b']);
    const { cloud, customers } = groupByOwner(groups);
    expect(cloud.map((g) => g.name)).toEqual(['z', 'a', 'b']);
    expect(customers.map((c) => c.owner.username)).toEqual(['Adam', 'zoe']);
  });
});

describe('/node-groups', () => {
  const LIST = [
    group(1, {
      name: 'Zeta',
      assignment: 'Common',
      ownerId: userAccount.id,
      owner: { id: userAccount.id, username: 'alice' },
    }),
    group(2, {
      name: 'Alpha',
      assignment: 'Outgoing',
      ownerId: userAccount.id,
      owner: { id: userAccount.id, username: 'alice' },
    }),
    group(3, {
      name: 'Beta',
      assignment: 'Ingestion',
      description: 'ingest',
      ownerId: id(50),
      owner: { id: id(50), username: 'Bob' },
    }),
    group(4, { name: 'Core', assignment: 'Common' }),
  ];

  it('a USER sees one flat list by assignment then name, without a create button', async () => {
    render('/node-groups', userAccount, { 'GET /api/v1/node-groups': () => jsonResponse(LIST.slice(0, 2)) });
    const list = await screen.findByRole('list', { name: 'Node groups' });
    const links = within(list).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(['Zeta', 'Alpha']);
    expect(links[0]?.getAttribute('href')).toBe(`/node-groups/${id(1)}`);
    expect(screen.queryByRole('button', { name: 'Create node group' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Streaming Cloud' })).toBeNull();
  });

  it("an ADMIN sees 'Streaming Cloud' then 'Customers' with a block per owner", async () => {
    render('/node-groups', adminAccount, { 'GET /api/v1/node-groups': () => jsonResponse(LIST) });
    const cloud = await screen.findByRole('list', { name: 'Streaming Cloud' });
    expect(
      within(cloud)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Core']);
    const headings = screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(headings).toEqual(['alice', 'Bob']);
    const bob = screen.getByRole('list', { name: 'Bob' });
    within(bob).getByText('Ingestion');
    within(bob).getByText('ingest');
  });

  it('an ADMIN creates a group with an owner from the account list', async () => {
    let created: unknown;
    const { user, mock } = render('/node-groups', adminAccount, {
      'GET /api/v1/node-groups': () => jsonResponse(LIST),
      'GET /api/v1/accounts': () => jsonResponse([userAccount, adminAccount]),
      'POST /api/v1/node-groups': (request) => {
        created = request.body;
        return jsonResponse(group(9, { name: 'New' }), 201);
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Create node group' }));
    const dialog = await screen.findByRole('dialog');
    const submit = within(dialog).getByRole('button', { name: 'Create' });
    await user.type(within(dialog).getByLabelText('Name'), 'New');
    await waitFor(() => within(dialog).getByRole('option', { name: 'alice' }));
    await user.selectOptions(within(dialog).getByLabelText('Owner'), 'alice');
    await user.selectOptions(within(dialog).getByLabelText('Assignment'), 'Ingestion');
    await waitFor(() => expect((submit as HTMLButtonElement).disabled).toBe(false));
    await user.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(created).toEqual({
      name: 'New',
      description: null,
      assignment: 'Ingestion',
      ownerId: userAccount.id,
      onResourcesChangeCallbackUri: null,
    });
    expect(mock.requests.filter((r) => r.method === 'GET' && r.url.pathname === '/api/v1/node-groups')).toHaveLength(2);
  });

  it("shows the server's message, else the spec's text, when creation fails", async () => {
    let answer = errorResponse(409, 'Name taken');
    const { user } = render('/node-groups', adminAccount, {
      'GET /api/v1/node-groups': () => jsonResponse([]),
      'GET /api/v1/accounts': () => jsonResponse([]),
      'POST /api/v1/node-groups': () => answer,
    });
    await user.click(await screen.findByRole('button', { name: 'Create node group' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Name'), 'x');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(alerts()).toContain('Name taken'));
    answer = new Response(null, { status: 500 });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(alerts()).toContain('Something wrong with node group creating'));
  });
});

describe('/node-groups/{id}', () => {
  it('shows the header, the rules and the nodes, Persistent then Allocated, with green/red badges', async () => {
    render(`/node-groups/${DASHBOARD.id}`);
    await screen.findByRole('heading', { level: 1, name: 'Edge EU' });
    screen.getByText('Outgoing');
    screen.getByText('alice');
    screen.getByText('CPU group average > 80% for 60 s → Increase by 1 through AWS');
    const persistent = screen.getByRole('table', { name: 'Persistent' });
    const row = within(persistent).getByText('edge-1').closest('tr') as HTMLElement;
    within(row).getByText('edge-1.example.net');
    within(row).getByText('Frankfurt');
    expect(within(row).getByText('Opened').className).toContain('bg-success');
    expect(within(row).getByText('Enabled').className).toContain('bg-danger');
    const allocated = screen.getByRole('table', { name: 'Allocated' });
    within(allocated).getByText('edge-eu-aws-1');
    const tables = screen.getAllByRole('table').map((t) => t.getAttribute('aria-labelledby'));
    expect(tables.indexOf('nodes-persistent')).toBeLessThan(tables.indexOf('nodes-allocated'));
  });

  it('is read-only for a USER: toggles disabled, no admin controls, no owner', async () => {
    render(`/node-groups/${DASHBOARD.id}`, userAccount);
    await screen.findByRole('heading', { level: 1, name: 'Edge EU' });
    expect((screen.getByLabelText('Scaling') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText('Enabled') as HTMLInputElement).disabled).toBe(true);
    for (const name of ['Settings', 'Add rule', 'Edit', 'Remove', 'Actions']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    expect(screen.queryByText('Owner:')).toBeNull();
    expect(screen.getByText('edge-1').closest('a')).toBeNull();
  });

  it('saves the scaling toggle at once; a failure shows the spec text', async () => {
    const bodies: unknown[] = [];
    let fail = false;
    const { user } = render(`/node-groups/${DASHBOARD.id}`, adminAccount, {
      [`PUT ${GROUP_URL}`]: (request) => {
        bodies.push(request.body);
        return fail ? new Response(null, { status: 500 }) : jsonResponse({ ...DASHBOARD, scalable: true });
      },
    });
    await user.click(await screen.findByLabelText('Scaling'));
    await waitFor(() => expect((screen.getByLabelText('Scaling') as HTMLInputElement).checked).toBe(true));
    expect(bodies).toEqual([{ scalable: true }]);
    fail = true;
    await user.click(screen.getByLabelText('Scaling'));
    await waitFor(() => expect(alerts()).toContain('Something wrong with node group loading on update'));
  });

  it("a rule's enabled toggle sends the whole rule at once; its failure has its own text", async () => {
    const bodies: unknown[] = [];
    const { user } = render(`/node-groups/${DASHBOARD.id}`, adminAccount, {
      [`PUT ${GROUP_URL}/scaling-rule/${RULE.id}`]: (request) => {
        bodies.push(request.body);
        return new Response(null, { status: 500 });
      },
    });
    await user.click(await screen.findByLabelText('Enabled'));
    await waitFor(() => expect(alerts()).toContain('Something wrong on updating scaling rule'));
    expect(bodies).toEqual([
      {
        enabled: false,
        actionTimeout: 0,
        condition: RULE.condition,
        action: RULE.action,
      },
    ]);
  });

  it('the rule modal validates, resets settings on a condition type change and shows bandwidth readably', async () => {
    let added: unknown;
    const { user } = render(`/node-groups/${DASHBOARD.id}`, adminAccount, {
      [`POST ${GROUP_URL}/scaling-rule`]: (request) => {
        added = request.body;
        return jsonResponse(RULE, 201);
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Add rule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add scaling rule' });
    const modal = within(dialog);
    const submit = modal.getByRole('button', { name: 'Add' }) as HTMLButtonElement;
    modal.getByText('1 gbps');
    expect((modal.getByLabelText('Amount') as HTMLInputElement).value).toBe('1');
    expect((modal.getByLabelText('Action timeout (seconds)') as HTMLInputElement).value).toBe('0');

    const value = modal.getByLabelText('Value (%)');
    await user.clear(value);
    await user.type(value, '101');
    await modal.findByText('Value must be between 0 and 100');
    expect(submit.disabled).toBe(true);
    await user.clear(value);
    await user.type(value, '90');
    const duration = modal.getByLabelText('Duration (seconds)');
    await user.clear(duration);
    await user.type(duration, '301');
    await modal.findByText('Duration must be between 0 and 300 seconds');
    await user.clear(duration);
    const amount = modal.getByLabelText('Amount');
    await user.clear(amount);
    await user.type(amount, '33');
    await modal.findByText('Amount must be between 1 and 32');
    await user.clear(amount);
    await user.type(amount, '2');
    const timeout = modal.getByLabelText('Action timeout (seconds)');
    await user.clear(timeout);
    await user.type(timeout, '3601');
    await modal.findByText('Action timeout must be between 0 and 3600 seconds');
    await user.clear(timeout);
    await user.type(timeout, '120');
    const bandwidth = modal.getByLabelText('Bandwidth limit (Mbps)');
    await user.clear(bandwidth);
    await user.type(bandwidth, '2500');
    modal.getByText('2.5 gbps');

    // GroupFull: settings of type None (reset to the defaults), then back to Liner
    await user.selectOptions(modal.getByLabelText('Condition type'), 'GroupFull');
    expect((modal.getByLabelText('Settings type') as HTMLInputElement).value).toBe('None');
    expect((modal.getByLabelText('Duration (seconds)') as HTMLInputElement).value).toBe('60');
    await user.selectOptions(modal.getByLabelText('Condition type'), 'BWGroupAvg');
    expect((modal.getByLabelText('Settings type') as HTMLInputElement).value).toBe('Liner');
    await user.selectOptions(modal.getByLabelText('Action type'), 'Reduce');
    await user.selectOptions(modal.getByLabelText('Provider'), 'Oracle');

    await waitFor(() => expect(submit.disabled).toBe(false));
    await user.click(submit);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(added).toEqual({
      enabled: true,
      actionTimeout: 120,
      condition: { type: 'BWGroupAvg', settings: { type: 'Liner', comparison: 'More', value: 80, duration: 60 } },
      action: { type: 'Reduce', settings: { provider: 'Oracle', value: null, bandwidthLimitMbps: 2500, amount: 2 } },
    });
  });

  it('rule add, edit and remove failures show their texts', async () => {
    const { user } = render(`/node-groups/${DASHBOARD.id}`, adminAccount, {
      [`POST ${GROUP_URL}/scaling-rule`]: () => new Response(null, { status: 500 }),
      [`PUT ${GROUP_URL}/scaling-rule/${RULE.id}`]: () => new Response(null, { status: 500 }),
      [`DELETE ${GROUP_URL}/scaling-rule/${RULE.id}`]: () => errorResponse(404, 'Scaling rule not found'),
    });
    await user.click(await screen.findByRole('button', { name: 'Add rule' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(alerts()).toContain('Something wrong on appending scale group'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const rules = within(screen.getByRole('list', { name: 'Scaling rules' }));
    await user.click(rules.getByRole('button', { name: 'Edit' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit scaling rule' });
    expect((within(edit).getByLabelText('Value (%)') as HTMLInputElement).value).toBe('80');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(alerts()).toContain('Something wrong on updating scale rule'));
    await user.click(within(edit).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(rules.getByRole('button', { name: 'Remove' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(alerts()).toContain('Scaling rule not found'));
  });

  it('the node picker attaches new nodes and detaches removed ones, one call each', async () => {
    const candidates: PersistentNodeCandidate[] = [
      { node: EDGE, groups: [{ id: DASHBOARD.id, name: 'Edge EU', type: 'Persistent' }] },
      { node: SPARE, groups: [{ id: id(7), name: 'Other', type: 'Persistent' }] },
    ];
    const { user, mock } = render(`/node-groups/${DASHBOARD.id}`, adminAccount, {
      'GET /api/v1/node-groups/persistent/node': () => jsonResponse(candidates),
      [`PUT ${GROUP_URL}/node/${SPARE.id}`]: () => emptyResponse(),
      [`DELETE ${GROUP_URL}/node/${EDGE.id}`]: () => emptyResponse(),
    });
    await user.click(await screen.findByRole('button', { name: 'Actions' }));
    await user.click(await screen.findByRole('button', { name: 'Persistent nodes' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Persistent nodes' }));
    const edge = (await dialog.findByLabelText(/edge-1/)) as HTMLInputElement;
    expect(edge.checked).toBe(true);
    dialog.getByText('Also in: Other');
    await user.click(edge);
    await user.click(dialog.getByLabelText(/spare-1/));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const writes = mock.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.url.pathname}`);
    expect(writes).toEqual([`PUT ${GROUP_URL}/node/${SPARE.id}`, `DELETE ${GROUP_URL}/node/${EDGE.id}`]);
    expect(mock.requests.find((r) => r.method === 'PUT')?.body).toBeUndefined();
  });

  it("'Allocate node' asks the server; its message is shown when it fails", async () => {
    const { user } = render(`/node-groups/${DASHBOARD.id}`, adminAccount, {
      [`POST ${GROUP_URL}/allocate`]: () =>
        errorResponse(
          503,
          'AWS credentials are not configured (set AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION)',
        ),
    });
    await user.click(await screen.findByRole('button', { name: 'Actions' }));
    await user.click(await screen.findByRole('button', { name: 'Allocate node' }));
    await waitFor(() =>
      expect(alerts()).toContain(
        'AWS credentials are not configured (set AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_REGION)',
      ),
    );
  });

  it('edit opens the modal; delete asks, then goes to /node-groups', async () => {
    const { user, location } = render(`/node-groups/${DASHBOARD.id}`, adminAccount, {
      'GET /api/v1/accounts': () => jsonResponse([userAccount]),
      [`DELETE ${GROUP_URL}`]: () => emptyResponse(),
      'GET /api/v1/node-groups': () => jsonResponse([]),
    });
    const settings = () => within(screen.getByRole('button', { name: 'Settings' }).closest('.dropdown') as HTMLElement);
    await user.click(await screen.findByRole('button', { name: 'Settings' }));
    await user.click(await settings().findByRole('button', { name: 'Edit' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit node group' }));
    expect((dialog.getByLabelText('Name') as HTMLInputElement).value).toBe('Edge EU');
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'Settings' }));
    await user.click(await settings().findByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(location()).toBe('/node-groups'));
  });

  it("a load failure shows the server's message, else the spec's text", async () => {
    render(`/node-groups/${DASHBOARD.id}`, adminAccount, {
      [`GET ${GROUP_URL}`]: () => errorResponse(404, 'Node group not found'),
    });
    await waitFor(() => expect(alerts()).toContain('Node group not found'));
  });

  it('a network failure on load shows the fallback text', async () => {
    render(`/node-groups/${DASHBOARD.id}`, adminAccount, { [`GET ${GROUP_URL}`]: networkFailure });
    await waitFor(() => expect(alerts()).toContain('Something wrong with node group loading on dashboard'));
  });
});
