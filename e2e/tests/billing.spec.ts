import { readFile } from 'node:fs/promises';
import { type Download, expect, type Page, test } from '@playwright/test';
import { apiLogin, createAccount, loginViaUi, type TestAccount } from '../support/accounts';
import { apiCreateInput } from '../support/streams';
import { createUsageNode, csvDate, dateInput, printedDate, sendReports, type UsageNode } from '../support/usage';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

interface Fixture {
  user: TestAccount;
  edge: UsageNode;
  relay: UsageNode;
  studioA: string;
  studioB: string;
  /** When studio A's publish session started: three hours ago, on the hour. */
  start: number;
  from: string;
  to: string;
}

/**
 * A known set of usage, reported through the node-facing API: studio A (RTMP, passthrough) published for an
 * hour on the edge, in two deltas, and was relayed to a second node that served viewers; studio B (WebRTC,
 * adjustable transcoding) published for 30 minutes.
 */
async function reportKnownUsage(request: Parameters<typeof createAccount>[0]): Promise<Fixture> {
  const user = await createAccount(request);
  const userToken = await apiLogin(request, { username: user.username, password: user.password });
  const edge = await createUsageNode(request, 'edge');
  const relay = await createUsageNode(request, 'relay', 'NA');
  const studioA = (
    await apiCreateInput(request, userToken, { format: 'RTMP', output: { passthrough: true }, caption: 'Studio A' })
  ).id;
  const studioB = (await apiCreateInput(request, userToken, { format: 'WebRTC', caption: 'Studio B' })).id;
  const start = Math.floor((Date.now() - 3 * HOUR) / HOUR) * HOUR;
  const session = (sessionId: string, startedAt: number, duration: number, upload: number, download: number) => ({
    sessionId,
    startedAt: iso(startedAt),
    duration,
    upload,
    download,
  });
  await sendReports(request, edge, [
    {
      id: `${studioA}-1`,
      kind: 'usage',
      at: iso(start + 30 * MINUTE),
      streamId: studioA,
      incoming: [session('pub-1', start, 1800, 1.2e9, 1e6)],
    },
    {
      id: `${studioA}-2`,
      kind: 'usage',
      at: iso(start + 60 * MINUTE),
      streamId: studioA,
      incoming: [session('pub-1', start, 1800, 0.8e9, 1e6)],
    },
    {
      id: `${studioB}-1`,
      kind: 'usage',
      at: iso(start + 40 * MINUTE),
      streamId: studioB,
      incoming: [session('w-1', start + 10 * MINUTE, 1800, 0.5e9, 0)],
    },
  ]);
  await sendReports(request, relay, [
    {
      id: `${studioA}-relay`,
      kind: 'usage',
      at: iso(start + 30 * MINUTE),
      streamId: studioA,
      internode: { duration: 1800, upload: 0, download: 1.5e9 },
      outgoing: { duration: 1800, upload: 1e6, download: 4.5e9 },
    },
  ]);
  return { user, edge, relay, studioA, studioB, start, from: dateInput(start), to: dateInput(Date.now()) };
}

/** Totals, Detailed or Very detailed (radio buttons drawn as a button group). */
async function reportMode(page: Page, label: string) {
  await page.getByRole('group', { name: 'Report detail' }).getByText(label, { exact: true }).click();
}

async function pickDates(page: Page, from: string, to: string) {
  await page.getByLabel('From', { exact: true }).fill(from);
  await page.getByLabel('To', { exact: true }).fill(to);
}

async function downloaded(page: Page, button: string): Promise<{ name: string; text: string }> {
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  const download: Download = await downloading;
  return { name: download.suggestedFilename(), text: await readFile(await download.path(), 'utf8') };
}

test('account billing: search, the three report modes, the CSV and the printed statement', async ({
  page,
  request,
}) => {
  const f = await reportKnownUsage(request);
  let statisticsCalls = 0;
  page.on('request', (req) => {
    if (req.url().includes('/api/v1/statistics/')) statisticsCalls += 1;
  });
  await loginViaUi(page, f.user);
  await page.getByRole('navigation').getByRole('link', { name: 'Billing', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Account billing' })).toBeVisible();
  await expect(page.getByText('Pick a period and press Search.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Protocol' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Processing' })).toBeVisible();
  expect(statisticsCalls).toBe(0);

  await pickDates(page, f.from, f.to);
  await page.getByRole('button', { name: 'Search' }).click();
  const report = page.getByRole('region', { name: 'Usage report' });
  const totals = report.getByRole('table', { name: 'Usage totals' });
  await expect(totals.getByRole('row', { name: 'Incoming 01:30:00 2.5 0.0 2.5' })).toBeVisible();
  await expect(totals.getByRole('row', { name: 'Internode 00:30:00 0.0 1.5 1.5' })).toBeVisible();
  await expect(totals.getByRole('row', { name: 'Outgoing 00:30:00 0.0 4.5 4.5' })).toBeVisible();
  await expect(report.getByRole('table', { name: 'Usage per stream' })).toHaveCount(0);
  expect(statisticsCalls).toBe(1);

  await reportMode(page, 'Detailed');
  const perStream = report.getByRole('table', { name: 'Usage per stream' });
  await expect(
    perStream.getByRole('row', { name: /Studio A .* RTMP Passthrough 01:00:00 2\.0 1\.5 4\.5/ }),
  ).toBeVisible();
  await expect(
    perStream.getByRole('row', { name: /Studio B .* WebRTC Transcode 00:30:00 0\.5 0\.0 0\.0/ }),
  ).toBeVisible();
  await expect(report.getByRole('table', { name: 'Usage of Studio A' })).toHaveCount(0);

  await reportMode(page, 'Very detailed');
  const studioA = report.getByRole('table', { name: 'Usage of Studio A' });
  const dateTime = (ms: number) => `${printedDate(ms)} ${csvDate(ms).slice(-8)}`;
  await expect(
    studioA.getByRole('row', {
      name: `Incoming ${f.edge.name} ${dateTime(f.start)} ${dateTime(f.start + HOUR)} 01:00:00 2.0 0.0`,
    }),
  ).toBeVisible();
  await expect(studioA.getByRole('row', { name: `Internode ${f.relay.name} 00:30:00 0.0 1.5` })).toBeVisible();
  await expect(studioA.getByRole('row', { name: `Outgoing ${f.relay.name} 00:30:00 0.0 4.5` })).toBeVisible();
  expect(statisticsCalls).toBe(1);

  // The CSV, byte for byte: streams in the report's order, a blank row between them.
  const ordered = [f.studioA, f.studioB].sort();
  const rows: Record<string, string[]> = {
    [f.studioA]: [
      `${f.studioA},Incoming,${f.edge.name},${csvDate(f.start)},${csvDate(f.start + HOUR)},01:00:00,2.000,0.002`,
      `${f.studioA},Internode,${f.relay.name},,,00:30:00,0.000,1.500`,
      `${f.studioA},Outgoing,${f.relay.name},,,00:30:00,0.001,4.500`,
    ],
    [f.studioB]: [
      `${f.studioB},Incoming,${f.edge.name},${csvDate(f.start + 10 * MINUTE)},${csvDate(f.start + 40 * MINUTE)},00:30:00,0.500,0.000`,
    ],
  };
  const expected = [
    'Stream ID,Type,Node,Start date,End date,Duration,Upload GB,Download GB',
    ...(rows[ordered[0] as string] ?? []),
    '',
    ...(rows[ordered[1] as string] ?? []),
  ];
  const csv = await downloaded(page, 'Export CSV');
  expect(csv.name).toBe(`Report ${f.user.username} ${f.from}-${f.to}.csv`);
  expect(csv.text).toBe(`${expected.join('\r\n')}\r\n`);

  // Print: window.print is called; the print layout shows only on paper.
  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => {
      (window as unknown as { printed: number }).printed += 1;
    };
  });
  await page.getByRole('button', { name: 'Print' }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await expect(page.getByRole('region', { name: 'Billing statement' })).toBeHidden();
  await page.emulateMedia({ media: 'print' });
  const statement = page.getByRole('region', { name: 'Billing statement' });
  await expect(statement).toBeVisible();
  await expect(statement.getByRole('img', { name: 'Streamcloud' })).toBeVisible();
  await expect(statement.getByRole('heading', { name: 'Billing Statement' })).toBeVisible();
  await expect(
    statement.getByText(`${printedDate(Date.parse(f.from))} - ${printedDate(Date.parse(f.to))}`),
  ).toBeVisible();
  await expect(statement.getByText('Date Printed')).toBeVisible();
  await expect(statement.getByText(printedDate(Date.now()), { exact: true })).toBeVisible();
  await expect(statement.getByText(f.user.username, { exact: true })).toBeVisible();
  await expect(statement.getByText(f.user.id, { exact: true })).toBeVisible();
  await expect(statement.getByRole('table', { name: 'Usage totals' })).toBeVisible();
  await expect(statement.getByRole('table', { name: 'Usage per stream' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Search' })).toBeHidden();
  await expect(page.getByRole('navigation')).toBeHidden();

  await page.emulateMedia({ media: 'screen' });
  await reportMode(page, 'Totals');
  await page.emulateMedia({ media: 'print' });
  await expect(statement.getByRole('table', { name: 'Usage totals' })).toBeVisible();
  await expect(statement.getByRole('table', { name: 'Usage per stream' })).toHaveCount(0);
  await page.emulateMedia({ media: 'screen' });
});

test('account billing filters by protocol and processing', async ({ page, request }) => {
  const f = await reportKnownUsage(request);
  await loginViaUi(page, f.user);
  await page.goto('/#/billing/account');
  await pickDates(page, f.from, f.to);
  await page.getByRole('button', { name: 'Protocol' }).click();
  await page.getByRole('button', { name: 'WebRTC', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Protocol: WebRTC' })).toBeVisible();
  await page.getByRole('button', { name: 'Search' }).click();
  await reportMode(page, 'Detailed');
  const perStream = page.getByRole('region', { name: 'Usage report' }).getByRole('table', { name: 'Usage per stream' });
  await expect(perStream.getByRole('row', { name: /Studio B/ })).toBeVisible();
  await expect(perStream.getByRole('row', { name: /Studio A/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Protocol: WebRTC' }).click();
  await page.getByRole('button', { name: 'All', exact: true }).click();
  await page.getByRole('button', { name: 'Processing' }).click();
  await page.getByRole('button', { name: 'Passthrough', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Processing: Passthrough' })).toBeVisible();
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(perStream.getByRole('row', { name: /Studio A/ })).toBeVisible();
  await expect(perStream.getByRole('row', { name: /Studio B/ })).toHaveCount(0);
});

test('stream billing loads on opening, exports Report.csv and prints the owner', async ({ page, request }) => {
  const f = await reportKnownUsage(request);
  await loginViaUi(page, f.user);
  const firstLoad = page.waitForRequest((req) => req.url().includes(`/api/v1/statistics/stream/${f.studioA}/`));
  await page.goto(`/#/billing/stream/${f.studioA}`);
  await firstLoad;
  await expect(page.getByRole('heading', { level: 1, name: 'Stream billing' })).toBeVisible();
  await pickDates(page, f.from, f.to);
  await page.getByRole('button', { name: 'Search' }).click();
  const report = page.getByRole('region', { name: 'Usage report' });
  await expect(
    report.getByRole('table', { name: 'Usage totals' }).getByRole('row', { name: 'Incoming 01:00:00 2.0 0.0 2.0' }),
  ).toBeVisible();
  await reportMode(page, 'Very detailed');
  await expect(
    report
      .getByRole('table', { name: 'Usage of Studio A' })
      .getByRole('row', { name: `Outgoing ${f.relay.name} 00:30:00 0.0 4.5` }),
  ).toBeVisible();

  const csv = await downloaded(page, 'Export CSV');
  expect(csv.name).toBe('Report.csv');
  expect(csv.text).toBe('Duration,01:00:00\r\nIncoming,2.00\r\nEgress,6.00\r\n');

  await page.emulateMedia({ media: 'print' });
  const statement = page.getByRole('region', { name: 'Billing statement' });
  await expect(statement.getByRole('heading', { name: 'Billing Statement' })).toBeVisible();
  await expect(statement.getByText(f.user.username, { exact: true })).toBeVisible();
  await expect(statement.getByText(f.user.id, { exact: true })).toBeVisible();
  await expect(statement.getByRole('table', { name: 'Usage of Studio A' })).toBeVisible();
  await page.emulateMedia({ media: 'screen' });
});
