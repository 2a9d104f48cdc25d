import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { closedPort, type NodeStub, startNodeStub } from '../../apps/api/test/node-stub';
import { ADMIN, loginViaUi, uniqueName } from '../support/accounts';
import { STREAMER_IP } from '../support/media';
import { apiCreateNode } from '../support/nodes';

/** The spec's text when a location cannot be determined (the console's LocationNote). */
const LOCATION_UNDETERMINED = 'Your location undetermined, you will be directed to the free resources zone';

let stub: NodeStub;
test.beforeAll(async () => {
  stub = await startNodeStub();
});
test.afterAll(async () => {
  await stub.close();
});

/** Registers a node through the API, as the admin; answers its id. */
async function createNode(
  request: APIRequestContext,
  body: { name: string; hostname: string; port?: number; code?: string },
): Promise<string> {
  const node = await apiCreateNode(request, {
    name: body.name,
    connection: { hostname: body.hostname, ...(body.port === undefined ? {} : { port: body.port }) },
    location: { code: body.code ?? null },
  });
  return node.id;
}

const okAlert = (page: Page) => page.getByRole('alert').filter({ hasText: /^OK$/ });

async function dismissAlerts(page: Page) {
  for (const button of await page.getByRole('button', { name: 'Dismiss notification' }).all()) {
    await button.click();
  }
}

test('an admin creates a node, sees its token once, edits, saves, refreshes and reads its metadata', async ({
  page,
}) => {
  const name = uniqueName('edge');
  await loginViaUi(page, ADMIN);
  await page.getByRole('navigation').getByRole('link', { name: 'Nodes', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Nodes' })).toBeVisible();
  await page.getByRole('link', { name: 'Add node' }).click();
  await expect(page).toHaveURL(/#\/nodes\/create$/);

  const form = page.getByRole('form', { name: 'Node' });
  await expect(form.getByLabel('Protocol')).toHaveValue('HTTP');
  await expect(form.getByLabel('Port')).toHaveValue('4242');
  await expect(form.getByLabel('Bandwidth limit (Mbps)')).toHaveValue('1000');
  await expect(form.getByLabel('Opened')).not.toBeChecked();
  await expect(form.getByLabel('Enabled')).not.toBeChecked();

  // The section 5 rules, before anything is sent.
  await form.getByLabel('Name', { exact: true }).fill('n'.repeat(256));
  await form.getByLabel('Port').fill('');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Name must be at most 255 characters')).toBeVisible();
  await expect(form.getByText('Hostname is required')).toBeVisible();
  await expect(form.getByText('Port is required')).toBeVisible();

  await form.getByLabel('Name', { exact: true }).fill(name);
  await form.getByLabel('Hostname').fill(stub.hostname);
  await form.getByLabel('Port').fill(String(stub.port));
  await form.getByLabel('Location code').fill('EU');
  await form.getByLabel('Location description').fill('Frankfurt');
  await form.getByRole('button', { name: 'Save' }).click();

  await expect(okAlert(page)).toBeVisible();
  await expect(page).toHaveURL(/#\/nodes\/view\/[\w-]+$/);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByLabel('Node token')).toHaveValue(/^scn_[\w-]{43}$/);

  // Edit and save.
  await dismissAlerts(page);
  await form.getByLabel('Opened').check();
  await form.getByLabel('Bandwidth limit (Mbps)').fill('2500');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(okAlert(page)).toBeVisible();

  // After a reload the changes are there, and the token is not shown again.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(form.getByLabel('Opened')).toBeChecked();
  await expect(form.getByLabel('Enabled')).not.toBeChecked();
  await expect(form.getByLabel('Bandwidth limit (Mbps)')).toHaveValue('2500');
  await expect(page.getByLabel('Node token')).toHaveCount(0);

  // Refresh from a chosen mode: the node stub is called.
  await page.getByLabel('Refresh mode').selectOption('Streams');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(okAlert(page)).toBeVisible();
  expect(stub.calls).toContainEqual({ method: 'POST', path: '/refresh', body: { mode: 'Streams' } });

  // Metadata, shown readably.
  await page.getByRole('button', { name: 'Metadata' }).click();
  const metadata = page.getByRole('region', { name: 'Metadata' });
  await expect(metadata.getByText('serverId')).toBeVisible();
  await expect(metadata.getByText('stub-node-1')).toBeVisible();

  // Re-issue the token.
  await page.getByRole('button', { name: 'Re-issue token' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ok' }).click();
  await expect(page.getByLabel('Node token')).toHaveValue(/^scn_/);
});

test('the node form looks up its address 500 ms after typing stops and fills the location', async ({ page }) => {
  const lookups: string[] = [];
  page.on('request', (sent) => {
    const url = new URL(sent.url());
    if (url.pathname === '/api/v1/info/location') lookups.push(url.searchParams.get('ipAddress') ?? '');
  });
  await loginViaUi(page, ADMIN);
  await page.goto('/#/nodes/create');
  const form = page.getByRole('form', { name: 'Node' });
  const note = form.getByTestId('node-location-lookup');

  // An address the location database places (the one the live specs push from).
  await form.getByLabel('Hostname').fill(STREAMER_IP);
  await expect(form.getByLabel('Location description')).not.toHaveValue('', { timeout: 15_000 });
  const description = await form.getByLabel('Location description').inputValue();
  await expect(note).toHaveText(description);
  await expect(form.getByLabel('Latitude')).toHaveValue(/^-?\d+(\.\d+)?$/);
  await expect(form.getByLabel('Longitude')).toHaveValue(/^-?\d+(\.\d+)?$/);
  expect(lookups).toEqual([STREAMER_IP]);

  // A private address has no location: the spec's text, and the fields stay as the lookup left them.
  await form.getByLabel('Hostname').fill('10.20.30.40');
  await expect(note).toHaveText(LOCATION_UNDETERMINED);
  await expect(form.getByLabel('Location description')).toHaveValue(description);
  expect(lookups).toEqual([STREAMER_IP, '10.20.30.40']);
});

test("an unreachable node's metadata request shows the spec's error text", async ({ page, request }) => {
  const name = uniqueName('gone');
  const id = await createNode(request, { name, hostname: '127.0.0.1', port: await closedPort() });
  await loginViaUi(page, ADMIN);
  await page.goto(`/#/nodes/view/${id}`);
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await page.getByRole('button', { name: 'Metadata' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Something wrong with node metadata request' })).toBeVisible();
  await expect(page.getByText(new RegExp(`Node ${name} \\(127\\.0\\.0\\.1:\\d+\\) is unreachable`))).toBeVisible();

  // Deleting it, after a confirmation, goes back to the list.
  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Ok' }).click();
  await expect(page).toHaveURL(/#\/nodes$/);
  await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
});

test('the node list groups nodes by region: EU, NA, SA, AS, AF, AN, OC, then others', async ({ page, request }) => {
  const names = {
    OC: uniqueName('sydney'),
    NA: uniqueName('toronto'),
    EU: uniqueName('paris'),
    XX: uniqueName('elsewhere'),
    none: uniqueName('nowhere'),
  };
  for (const [code, name] of Object.entries(names)) {
    await createNode(request, { name, hostname: `${name}.example`, ...(code === 'none' ? {} : { code }) });
  }
  await loginViaUi(page, ADMIN);
  await page.goto('/#/nodes');
  await expect(page.getByRole('link', { name: names.EU, exact: true })).toBeVisible();

  const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
  const order = ['Europe (EU)', 'North America (NA)', 'Oceania (OC)', 'XX', 'No region'].map((title) =>
    headings.indexOf(title),
  );
  expect(order.every((index) => index >= 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);

  const titles: Record<keyof typeof names, string> = {
    EU: 'Europe (EU)',
    NA: 'North America (NA)',
    OC: 'Oceania (OC)',
    XX: 'XX',
    none: 'No region',
  };
  for (const [code, name] of Object.entries(names) as Array<[keyof typeof names, string]>) {
    const section = page.getByRole('region', { name: titles[code], exact: true });
    await expect(section.getByRole('link', { name, exact: true })).toHaveAttribute('href', /#\/nodes\/view\/[\w-]+$/);
  }
  await page.getByRole('link', { name: names.NA, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: names.NA })).toBeVisible();
});

test('an admin drains a node before maintenance, sees it drained, and stops draining', async ({ page, request }) => {
  const name = uniqueName('maintenance');
  const id = await createNode(request, { name, hostname: '127.0.0.1', port: stub.port });
  await loginViaUi(page, ADMIN);
  await page.goto(`/#/nodes/view/${id}`);
  await expect(
    page.getByText('Takes new streams and viewers. On it: 0 live streams, 0 other streams, 0 viewer outputs.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Drain', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Drain node' });
  await expect(dialog).toContainText(`Drain node ${name}?`);
  await dialog.getByRole('button', { name: 'Ok' }).click();
  // Nothing runs on a new node: drained at once.
  await expect(page.getByText(/^Drained since .+: nothing runs here, the node may be stopped\.$/)).toBeVisible();
  await page.getByRole('button', { name: 'Stop draining' }).click();
  await expect(page.getByRole('button', { name: 'Drain', exact: true })).toBeVisible();
  await expect(page.getByText(/^Takes new streams and viewers\./)).toBeVisible();
});

test('a node that never reported shows so in the list, beside Opened and Enabled', async ({ page, request }) => {
  const name = uniqueName('silent');
  await apiCreateNode(request, { name, connection: { hostname: `${name}.example` }, opened: true, enabled: true });
  await loginViaUi(page, ADMIN);
  await page.goto('/#/nodes');
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
  await expect(row).toContainText('Opened');
  await expect(row).toContainText('Enabled');
  await expect(row.getByText('Never reported', { exact: true })).toHaveAttribute(
    'title',
    'Registered, but no report yet: the node is not running, or cannot reach the control plane',
  );
  await expect(row).not.toContainText('Reporting');
});
