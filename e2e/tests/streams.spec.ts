import { expect, type Locator, type Page, test } from '@playwright/test';
import { type StreamInput, streamRoutes, streamTagRoutes } from '@streamcloud/contract';
import { apiLogin, createAccount, loginViaUi, type TestAccount } from '../support/accounts';
import { api } from '../support/api';
import { installPageClock, toNextPoll } from '../support/clock';
import {
  apiCreateInput,
  apiCreateInputs,
  apiCreateOutput,
  apiGetInput,
  createMediaNode,
  reportStreamState,
  type TestNode,
  withNoOpenNode,
} from '../support/streams';

// Typing through several modals and waiting for 5 s polls: more room than the default 30 s.
test.describe.configure({ timeout: 60_000 });

let node: TestNode;
test.beforeAll(async ({ request }) => {
  node = await createMediaNode(request);
});

/** A fresh USER (its own, empty stream list) signed in through the UI, and its API token. */
async function freshUser(page: Page, request: Parameters<typeof apiLogin>[0]): Promise<[TestAccount, string]> {
  const account = await createAccount(request);
  const token = await apiLogin(request, { username: account.username, password: account.password });
  await loginViaUi(page, account);
  return [account, token];
}

const streamList = (page: Page) => page.getByRole('list', { name: 'Streams' });
const rows = (page: Page) => streamList(page).getByRole('listitem');
const toolbar = (page: Page) => page.getByRole('toolbar', { name: 'Stream actions' });
const alertWith = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

/** The stream list, reloaded (`?refresh` reloads it, then drops the parameter). */
async function openStreamList(page: Page) {
  await page.goto('/#/streams?refresh=true');
  await expect(page).toHaveURL(/#\/streams$/);
}

async function openCreateModal(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Create stream' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create stream' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('creates a stream in each format: the connection modal shows its endpoint and leads to the dashboard', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await freshUser(page, request);
  await page.goto('/#/streams');
  // Whichever enabled, opened node of this shared server takes the stream: the host may vary.
  const endpoints: [string, RegExp][] = [
    ['WebRTC', /^http:\/\/[a-z0-9.-]+\.e2e\.example:4242\/whip\/in%2B[0-9a-f-]{36}$/],
    ['RTMP', /^rtmp:\/\/[a-z0-9.-]+\.e2e\.example:1935\/live\/in%2B[0-9a-f-]{36}$/],
    ['RTSP', /^rtsp:\/\/[a-z0-9.-]+\.e2e\.example:8554\/live\/in%2B[0-9a-f-]{36}$/],
    ['SRT', /^srt:\/\/[a-z0-9.-]+\.e2e\.example:9710\?streamid=in%2B[0-9a-f-]{36}$/],
  ];
  for (const [format, endpoint] of endpoints) {
    const dialog = await openCreateModal(page);
    await expect(dialog.getByLabel('Format')).toHaveValue('WebRTC');
    await expect(dialog.getByLabel('Output')).toHaveValue('AdjustableTranscode');
    await expect(dialog.getByLabel('Access')).toHaveValue('Public');
    // The formats a media node takes a push in, and Internode (pulled from another stream).
    await expect(dialog.getByLabel('Format').getByRole('option')).toHaveText([
      'WebRTC',
      'RTMP',
      'RTSP',
      'SRT',
      'Internode',
    ]);
    await dialog.getByLabel('Caption').fill(`zz ${format} stream`);
    await dialog.getByLabel('Format').selectOption(format);
    await dialog.getByRole('button', { name: 'Create' }).click();

    const connection = page.getByRole('dialog', { name: 'Connection' });
    await expect(connection.locator('code')).toHaveText(endpoint);
    await expect(connection.getByRole('button', { name: 'Copy endpoint' })).toBeVisible();
    await expect(connection.getByRole('button', { name: 'Copy token' })).toHaveCount(0);
    await expect(connection.getByText('RTSP pushes are taken over TCP only', { exact: false })).toHaveCount(
      format === 'RTSP' ? 1 : 0,
    );
    const first = rows(page).first();
    await expect(first).toContainText(`zz ${format} stream`);
    await expect(first.getByText('new', { exact: true })).toBeVisible();
    await expect(first).toContainText(format);
    await connection.getByRole('button', { name: 'Close' }).click();
    await expect(connection).toBeHidden();
  }
  await expect(page.getByText('4 of 4 streams loaded')).toBeVisible();

  // Passthrough, and the 'View Stream' link.
  const dialog = await openCreateModal(page);
  await dialog.getByLabel('Caption').fill('Passthrough one');
  await dialog.getByLabel('Format').selectOption('RTMP');
  await dialog.getByLabel('Output').selectOption('Passthrough');
  await dialog.getByRole('button', { name: 'Create' }).click();
  const connection = page.getByRole('dialog', { name: 'Connection' });
  await expect(connection.locator('code')).toHaveText(/\/live\/pt%2B/);
  await connection.getByRole('link', { name: 'View Stream' }).click();
  await expect(page).toHaveURL(/#\/streams\/view\/[0-9a-f-]{36}$/);
  await expect(page.getByTitle('Click me to change')).toHaveText('Passthrough one');
  await expect(toolbar(page).getByRole('link', { name: 'Transcoding' })).toBeDisabled();
});

test('creates a stream in each access mode, with the token rules', async ({ page, request }) => {
  await freshUser(page, request);
  await page.goto('/#/streams');

  // Public: no token field, no token.
  let dialog = await openCreateModal(page);
  await expect(dialog.getByLabel('Access token')).toHaveCount(0);
  await dialog.getByLabel('Caption').fill('Public one');
  await dialog.getByRole('button', { name: 'Create' }).click();
  let connection = page.getByRole('dialog', { name: 'Connection' });
  await expect(connection.getByRole('button', { name: 'Copy endpoint' })).toBeVisible();
  await expect(connection.getByRole('button', { name: 'Copy token' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(connection).toBeHidden();

  // PrivateIngoing: the field is shown but not sent; the server generates the token.
  dialog = await openCreateModal(page);
  await dialog.getByLabel('Access').selectOption('PrivateIngoing');
  await expect(dialog.getByLabel('Access token')).toBeDisabled();
  await dialog.getByLabel('Caption').fill('Ingoing one');
  await dialog.getByRole('button', { name: 'Create' }).click();
  connection = page.getByRole('dialog', { name: 'Connection' });
  await expect(connection.getByRole('button', { name: 'Copy token' })).toBeVisible();
  await expect(connection.locator('code').nth(1)).toHaveText(/^[\w-]{20,}$/);
  // A click on the backdrop closes it.
  await page.mouse.click(5, 5);
  await expect(connection).toBeHidden();

  // Private with a typed token: it is the one the stream gets.
  dialog = await openCreateModal(page);
  await dialog.getByLabel('Access').selectOption('Private');
  await dialog.getByLabel('Access token').fill('my-secret-token');
  await dialog.getByLabel('Caption').fill('Private one');
  await dialog.getByRole('button', { name: 'Create' }).click();
  connection = page.getByRole('dialog', { name: 'Connection' });
  await expect(connection.getByText('my-secret-token')).toBeVisible();
  await connection.getByRole('link', { name: 'View Stream' }).click();
  const input = page.getByRole('region', { name: 'Input' });
  await expect(input.getByText('my-secret-token')).toBeVisible();
  await expect(input.getByText('Access token')).toBeVisible();

  await page.goto('/#/streams');
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).filter({ hasText: 'Private one' })).toContainText('Private · Adjustable transcoding');
  await expect(rows(page).filter({ hasText: 'Ingoing one' })).toContainText('Private ingoing');
  await expect(rows(page).filter({ hasText: 'Public one' })).toContainText('Public · Adjustable transcoding');
});

test('searches and filters by protocol, state and processing', async ({ page, request }) => {
  const account = await createAccount(request);
  const token = await apiLogin(request, { username: account.username, password: account.password });
  const live = await apiCreateInput(request, token, { caption: 'Alpha Live', format: 'RTMP' }, node);
  const broken = await apiCreateInput(
    request,
    token,
    { caption: 'Bravo Broken', format: 'SRT', output: { passthrough: true } },
    node,
  );
  const idle = await apiCreateInput(request, token, { caption: 'Charlie Idle', format: 'WebRTC' }, node);
  const bare = await apiCreateInput(request, token, { format: 'RTMP', output: { passthrough: true } }, node);
  await reportStreamState(request, node, { streamId: live.id, status: 'Ingestion' });
  await reportStreamState(request, node, { streamId: broken.id, status: 'Error' });
  await loginViaUi(page, account);
  await openStreamList(page);
  await expect(rows(page)).toHaveCount(4);
  // Format, then caption or id (case-insensitive): RTMP's two, then SRT, then WebRTC.
  const rtmp = ['Alpha Live', bare.id].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
  await expect(rows(page).nth(0)).toContainText(rtmp[0]!);
  await expect(rows(page).nth(1)).toContainText(rtmp[1]!);
  await expect(rows(page).nth(2)).toContainText('Bravo Broken');
  await expect(rows(page).nth(3)).toContainText('Charlie Idle');

  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill('  charlie ');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(idle.id);
  await search.fill(bare.id.slice(0, 13).toUpperCase());
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(bare.id);
  await search.fill('');
  await expect(rows(page)).toHaveCount(4);

  await page.getByRole('button', { name: 'Protocol: All' }).click();
  await page.getByRole('checkbox', { name: 'RTMP' }).check();
  await expect(page.getByRole('button', { name: 'Protocol: RTMP' })).toBeVisible();
  await expect(rows(page)).toHaveCount(2);
  await page.getByRole('checkbox', { name: 'SRT' }).check();
  await expect(page.getByRole('button', { name: 'Protocol: RTMP, SRT' })).toHaveText('RTMP, SRT');
  await expect(rows(page)).toHaveCount(3);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'State: All' }).click();
  await page.getByRole('checkbox', { name: 'Ingestion' }).check();
  await page.getByRole('checkbox', { name: 'Error' }).check();
  await expect(page.getByRole('button', { name: 'State: Ingestion, Error' })).toBeVisible();
  await expect(rows(page)).toHaveCount(2);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Processing: All' }).click();
  await page.getByRole('checkbox', { name: 'Passthrough' }).check();
  await expect(page.getByRole('button', { name: 'Processing: Passthrough' })).toBeVisible();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('Bravo Broken');
  await page.getByRole('checkbox', { name: 'Passthrough' }).uncheck();
  await page.getByRole('checkbox', { name: 'Adjustable transcoding' }).check();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText('Alpha Live');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByRole('button', { name: 'Protocol: All' })).toBeVisible();
  await expect(rows(page)).toHaveCount(4);
});

test('starts the filters collapsed in a narrow window', async ({ page, request }) => {
  await freshUser(page, request);
  await page.setViewportSize({ width: 800, height: 800 });
  await page.reload();
  const toggle = page.getByRole('button', { name: 'Filters' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByRole('button', { name: 'Protocol: All' })).toBeHidden();
  await toggle.click();
  await expect(page.getByRole('button', { name: 'Protocol: All' })).toBeVisible();
});

test('remembers the list or grid view across reloads', async ({ page, request }) => {
  const [, token] = await freshUser(page, request);
  await apiCreateInput(request, token, { caption: 'Viewed' });
  await openStreamList(page);
  await expect(rows(page)).toHaveCount(1);
  await expect(page.locator('.stream-card')).toHaveCount(0);
  await page.getByText('Grid', { exact: true }).click();
  await expect(page.locator('.stream-card')).toHaveCount(1);
  await page.reload();
  await expect(page.locator('.stream-card')).toHaveCount(1);
  await expect(page.getByRole('radio', { name: 'Grid' })).toBeChecked();
  await page.getByText('List', { exact: true }).click();
  await page.reload();
  await expect(rows(page)).toHaveCount(1);
  await expect(page.locator('.stream-card')).toHaveCount(0);
});

test("pages past 200 with 'More'", async ({ page, request }) => {
  test.setTimeout(90_000);
  const [, token] = await freshUser(page, request);
  await apiCreateInputs(request, token, 201, (index) => ({ caption: `Paged ${String(index).padStart(3, '0')}` }));
  await openStreamList(page);
  await expect(page.getByText('200 of 201 streams loaded')).toBeVisible();
  await expect(rows(page).first()).toContainText('Paged 000');
  // Only the rows in sight are in the page.
  expect(await rows(page).count()).toBeLessThan(60);
  await page.getByRole('button', { name: 'More' }).click();
  await expect(page.getByText('201 of 201 streams loaded')).toBeVisible();
  await expect(page.getByRole('button', { name: 'More' })).toHaveCount(0);
  await page.getByRole('searchbox', { name: 'Search' }).fill('Paged 200');
  await expect(rows(page)).toHaveCount(1);
});

test('edits the caption by Enter and by blur, and the tags', async ({ page, request }) => {
  const [, token] = await freshUser(page, request);
  const stream = await apiCreateInput(request, token, { caption: 'First caption' });
  await page.goto(`/#/streams/view/${stream.id}`);
  const caption = page.getByTitle('Click me to change');
  await expect(caption).toHaveText('First caption');

  await caption.click();
  const input = page.getByRole('textbox', { name: 'Caption' });
  await input.fill('Entered caption');
  await input.press('Enter');
  await expect(caption).toHaveText('Entered caption');
  await expect.poll(async () => (await apiGetInput(request, token, stream.id)).caption).toBe('Entered caption');

  await caption.click();
  await input.fill('Blurred caption');
  await page.getByTestId('stream-status').click();
  await expect(caption).toHaveText('Blurred caption');
  await expect.poll(async () => (await apiGetInput(request, token, stream.id)).caption).toBe('Blurred caption');

  // Tags, on the same dashboard (a few seconds more rather than a test of its own: the real-time lane's budget).
  const tags = page.getByRole('region', { name: 'Tags' });
  // What is typed is taken in lower case.
  for (const [typed, tag] of [
    ['Studio-A', 'studio-a'],
    ['sports', 'sports'],
  ] as const) {
    await tags.getByLabel('Tag', { exact: true }).fill(typed);
    await tags.getByRole('button', { name: 'Add tag' }).click();
    await expect(tags.getByRole('button', { name: `Remove tag ${tag}` })).toBeVisible();
  }
  await tags.getByRole('button', { name: 'Remove tag sports' }).click();
  await expect(tags.getByRole('button', { name: 'Remove tag sports' })).toHaveCount(0);
  const tagged = await api(request, token).call(streamTagRoutes.streams, { params: { tag: 'studio-a' } });
  expect(tagged.map((found) => found.id)).toEqual([stream.id]);
});

interface StatusCase {
  badgeClass: RegExp;
  callout: RegExp | null;
  enabled: string[];
  disabled: string[];
  record: boolean;
}

const BUTTONS = [
  'Billing',
  'Stop',
  'Transcoding',
  'Snapshots',
  'Recordings',
  'Relays',
  'GSLB',
  'Fallback',
  'Update',
  'Delete',
];

function expectedButtons(enabled: string[]) {
  return { enabled, disabled: BUTTONS.filter((name) => !enabled.includes(name)) };
}

const STATUS_CASES: Record<StreamInput['status'], StatusCase> = {
  Pending: {
    badgeClass: /bg-primary/,
    callout: /pending/,
    ...expectedButtons([
      'Billing',
      'Stop',
      'Transcoding',
      'Snapshots',
      'Recordings',
      'Relays',
      'GSLB',
      'Fallback',
      'Delete',
    ]),
    record: false,
  },
  Idle: {
    badgeClass: /bg-light/,
    callout: null,
    ...expectedButtons([
      'Billing',
      'Transcoding',
      'Snapshots',
      'Recordings',
      'Relays',
      'GSLB',
      'Fallback',
      'Update',
      'Delete',
    ]),
    record: false,
  },
  Ingestion: {
    badgeClass: /bg-success/,
    callout: /live/,
    ...expectedButtons(['Billing', 'Stop', 'Recordings', 'Relays', 'GSLB', 'Fallback', 'Delete']),
    record: true,
  },
  Error: {
    badgeClass: /bg-danger/,
    callout: null,
    ...expectedButtons(['Billing', 'Fallback', 'Update', 'Delete']),
    record: false,
  },
  Fallback: {
    badgeClass: /stream-badge-fallback/,
    callout: null,
    ...expectedButtons([
      'Billing',
      'Stop',
      'Transcoding',
      'Snapshots',
      'Recordings',
      'Relays',
      'GSLB',
      'Fallback',
      'Delete',
    ]),
    record: false,
  },
};

function actionControl(page: Page, name: string): Locator {
  const pattern = name === 'GSLB' ? /^GSLB/ : new RegExp(`^${name}$`);
  return toolbar(page)
    .getByRole('button', { name: pattern })
    .or(toolbar(page).getByRole('link', { name: pattern }));
}

async function expectStatus(page: Page, status: StreamInput['status']) {
  const expected = STATUS_CASES[status];
  await expect(page.getByTestId('stream-status')).toHaveText(status);
  await expect(page.locator(`.badge[data-status="${status}"]`)).toHaveClass(expected.badgeClass);
  const callout = page.getByRole('note', { name: 'Stream status' });
  if (expected.callout) await expect(callout).toContainText(expected.callout);
  else await expect(callout).toHaveCount(0);
  for (const name of expected.enabled) await expect(actionControl(page, name), name).toBeEnabled();
  for (const name of expected.disabled) await expect(actionControl(page, name), name).toBeDisabled();
  const record = page.getByRole('button', { name: 'Record' });
  if (expected.record) await expect(record).toBeEnabled();
  else await expect(record).toBeDisabled();
  await expect(page.getByRole('region', { name: 'Recordings and Relays' })).toHaveCount(status === 'Error' ? 0 : 1);
}

test('each status reported by the node shows its badge, callout and buttons, polled every 5 s', async ({
  page,
  request,
}) => {
  const [, token] = await freshUser(page, request);
  const stream = await apiCreateInput(request, token, { caption: 'Driven', format: 'RTMP' }, node);
  await installPageClock(page);
  await page.goto(`/#/streams/view/${stream.id}`);
  await expectStatus(page, 'Idle');

  for (const status of ['Ingestion', 'Error', 'Fallback', 'Idle'] as const) {
    await reportStreamState(request, node, {
      streamId: stream.id,
      status,
      message: { level: status === 'Error' ? 'error' : 'info', text: `Now ${status}` },
    });
    await toNextPoll(page);
    await expectStatus(page, status);
    await expect(page.getByRole('region', { name: 'Messages' })).toContainText(`Now ${status}`);
  }

  // The list shows the same badge.
  await reportStreamState(request, node, { streamId: stream.id, status: 'Ingestion' });
  await toNextPoll(page);
  await openStreamList(page);
  await expect(rows(page).first().locator('.badge[data-status="Ingestion"]')).toHaveClass(/bg-success/);
  await expect(rows(page).first().locator('.badge[data-status="Ingestion"] .stream-pulse')).toHaveCount(1);

  // Stop sends state Idle.
  await rows(page).first().getByRole('link').click();
  await expectStatus(page, 'Ingestion');
  await actionControl(page, 'Stop').click();
  await expectStatus(page, 'Idle');
  await expect.poll(async () => (await apiGetInput(request, token, stream.id)).status).toBe('Idle');
});

test('a stream created while no node takes streams is Pending, and can be stopped', async ({ page, request }) => {
  const [, token] = await freshUser(page, request);
  // Everything happens while no node takes streams, so the stream cannot be assigned meanwhile.
  await withNoOpenNode(request, async () => {
    const pending = await apiCreateInput(request, token, { caption: 'Waiting' });
    expect(pending.status).toBe('Pending');
    await page.goto(`/#/streams/view/${pending.id}`);
    await expectStatus(page, 'Pending');
    await expect(page.getByRole('region', { name: 'Input' })).toContainText('waiting for a media node');
    await openStreamList(page);
    await expect(rows(page).first().locator('.badge[data-status="Pending"] .spinner-border')).toHaveCount(1);
    await page.goto(`/#/streams/view/${pending.id}`);
    await actionControl(page, 'Stop').click();
    await expectStatus(page, 'Idle');
  });
});

test('viewers: 4 per page, load more, clear sessions, delete, create', async ({ page, request }) => {
  const [, token] = await freshUser(page, request);
  const stream = await apiCreateInput(request, token, { caption: 'Watched', format: 'RTMP' }, node);
  const outputs = [];
  for (let index = 0; index < 5; index++) outputs.push(await apiCreateOutput(request, token, stream.id));
  const watched = outputs[0]!;
  await reportStreamState(request, node, {
    streamId: stream.id,
    status: 'Ingestion',
    outputs: [
      {
        outputId: watched.id,
        sessions: [
          { id: 'session-1', ipAddress: '203.0.113.7', startedAt: new Date().toISOString(), bytes: 1000 },
          { id: 'session-2', ipAddress: '203.0.113.8', startedAt: new Date().toISOString(), bytes: 2000 },
        ],
      },
    ],
  });
  await page.goto(`/#/streams/view/${stream.id}`);
  const viewers = page.getByRole('region', { name: 'Viewers' });
  const items = viewers.getByRole('listitem');
  await expect(items).toHaveCount(4);
  await expect(viewers.getByText('4 of 5 viewers')).toBeVisible();
  await viewers.getByRole('button', { name: 'Load more' }).click();
  await expect(items).toHaveCount(5);
  await expect(viewers.getByRole('button', { name: 'Load more' })).toHaveCount(0);

  const first = viewers.getByRole('listitem', { name: `Viewer ${watched.name}` });
  await expect(first).toContainText('2 sessions');
  await first.getByRole('button', { name: 'Clear sessions' }).click();
  await expect(first).toContainText('0 sessions');

  await first.getByRole('button', { name: 'Delete' }).click();
  await expect(first).toHaveCount(0);
  await expect(items).toHaveCount(4);
  await expect(viewers.getByText('4 of 4 viewers')).toBeVisible();

  await viewers.getByRole('button', { name: 'Add viewer' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create viewer' });
  await expect(dialog.getByLabel('Format')).toHaveValue('RTMP');
  await dialog.getByLabel('Browser').check();
  await expect(dialog.getByLabel('Format')).toHaveValue('WebRTC');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog).toBeHidden();
  await expect(viewers.getByText('4 of 5 viewers')).toBeVisible();
});

test('provisions the GSLB ingress endpoint', async ({ page, request }) => {
  const [, token] = await freshUser(page, request);
  const stream = await apiCreateInput(request, token, { caption: 'Global', format: 'RTMP' }, node);
  await page.goto(`/#/streams/view/${stream.id}`);
  await expect(actionControl(page, 'GSLB')).toHaveText(/GSLB\s*beta/);
  await actionControl(page, 'GSLB').click();
  const dialog = page.getByRole('dialog', { name: /Global load balancing/ });
  await dialog.getByRole('button', { name: 'Provision' }).click();
  await expect(dialog.getByRole('button', { name: 'Provision' })).toBeDisabled();
  await expect(dialog.locator('code')).toHaveText(/as%2B[0-9a-f-]{36}/);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('region', { name: 'Input' })).toContainText('as%2B');
});

test("a WebRTC stream's GSLB endpoint is the control plane's WHIP address, which answers 307 to a node", async ({
  page,
  request,
  baseURL,
}) => {
  const [, token] = await freshUser(page, request);
  const stream = await apiCreateInput(request, token, { caption: 'Global WHIP', format: 'WebRTC' }, node);
  await page.goto(`/#/streams/view/${stream.id}`);
  await actionControl(page, 'GSLB').click();
  const dialog = page.getByRole('dialog', { name: /Global load balancing/ });
  await dialog.getByRole('button', { name: 'Provision' }).click();
  // GSLB_URL is unset: the address shown is the control plane's own, as `npm start` prints it.
  const origin = `http://localhost:${new URL(baseURL ?? '').port}`;
  const code = dialog.locator('code');
  await expect(code).toHaveText(new RegExp(`^${origin}/whip/as%2B[0-9a-f-]{36}$`));
  const shown = (await code.textContent()) ?? '';
  const answer = await request.post(shown, {
    headers: { 'content-type': 'application/sdp' },
    data: 'v=0\r\n',
    maxRedirects: 0,
  });
  expect(answer.status()).toBe(307);
  expect(answer.headers().location).toMatch(/\/whip\/as%2B[0-9a-f-]{36}$/);
});

test('delete asks for confirmation; Cancel keeps the stream, Ok deletes it and goes to /streams', async ({
  page,
  request,
}) => {
  const [, token] = await freshUser(page, request);
  const stream = await apiCreateInput(request, token, { caption: 'Doomed' });
  await page.goto(`/#/streams/view/${stream.id}`);
  await expect(page.getByTitle('Click me to change')).toHaveText('Doomed');

  await actionControl(page, 'Delete').click();
  let dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Do you really want to delete stream? This cannot be undone.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`#/streams/view/${stream.id}$`));

  await actionControl(page, 'Delete').click();
  dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Ok' }).click();
  await expect(page).toHaveURL(/#\/streams$/);
  await expect(page.getByText('There are no streams yet.')).toBeVisible();
  await expect(api(request, token).call(streamRoutes.get, { params: { id: stream.id } })).rejects.toMatchObject({
    status: 404,
  });
});

test('a dashboard that cannot load says so', async ({ page, request }) => {
  await freshUser(page, request);
  await page.goto('/#/streams/view/00000000-0000-4000-8000-000000000000');
  await expect(
    alertWith(page, 'Stream not found').or(alertWith(page, 'Something wrong with stream loading')),
  ).toBeVisible();
  await expect(actionControl(page, 'Delete')).toBeDisabled();
});
