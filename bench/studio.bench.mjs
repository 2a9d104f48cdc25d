// Issue 22: how long the browser studio takes to put a WebRTC stream on air, on a real local media node.
// Per round a new WebRTC stream, its dashboard in a fresh page of Chromium with its fake camera and
// microphone (`--use-fake-device-for-media-stream`, granted without a prompt as in e2e/tests/studio.spec.ts);
// the studio opens at 360p, and once its camera shows the time runs from the press on its "Go live" button
// to the studio's "Studio: Live" (ICE connected over WHIP) and to the dashboard's status "Ingestion" (what
// the API reports: the node saw the push and told the control plane; the dashboard polls the stream).
// Both are read in the page (a MutationObserver), so no polling of Playwright's adds to them.

import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamRoutes } from '@streamcloud/contract';
import { chromium } from 'playwright-core';
import { ensureConsoleBuilt } from '../scripts/lib.mjs';
import { apiClient, CHROMIUM, printTable, signedInContext, startApi } from './lib.mjs';
import { startNode } from './media-lib.mjs';

const ROUNDS = Number(process.env.BENCH_STUDIO_ROUNDS ?? 5);
const TIMEOUT_MS = 30_000;

/** In the page, before the console runs: when "Go live" was pressed, and when each status first showed. */
function installStudioProbe() {
  window.__studio = { pressedAt: null, liveAt: null, ingestionAt: null };
  document.addEventListener(
    'click',
    (event) => {
      const button = event.target?.closest?.('[role="dialog"] button');
      if (button?.textContent === 'Go live' && window.__studio.pressedAt === null)
        window.__studio.pressedAt = event.timeStamp;
    },
    true,
  );
  new MutationObserver(() => {
    const probe = window.__studio;
    if (probe.pressedAt === null) return;
    const studio = document.querySelector('[role="status"][aria-label="Publishing status"]')?.textContent;
    if (probe.liveAt === null && studio === 'Studio: Live') probe.liveAt = performance.now();
    const stream = document.querySelector('[data-testid="stream-status"]')?.textContent;
    if (probe.ingestionAt === null && stream === 'Ingestion') probe.ingestionAt = performance.now();
  }).observe(document, { childList: true, subtree: true, characterData: true });
}

async function round(context, base, api) {
  const stream = await api.call(streamRoutes.create, { body: { format: 'WebRTC', caption: 'studio bench' } });
  const page = await context.newPage();
  try {
    await page.addInitScript(installStudioProbe);
    await page.goto(`${base}/#/streams/view/${stream.id}`);
    await page.getByRole('button', { name: 'Go live' }).click({ timeout: TIMEOUT_MS });
    const studio = page.getByRole('dialog', { name: 'Studio' });
    await studio.getByLabel('Resolution').selectOption('360p');
    const preview = studio.getByLabel('Local preview');
    await page.waitForFunction(
      (video) => video.videoHeight === 360,
      await preview.elementHandle({ timeout: TIMEOUT_MS }),
      { timeout: TIMEOUT_MS },
    );
    await studio.getByRole('button', { name: 'Go live' }).click();
    await page.waitForFunction(() => window.__studio.liveAt !== null && window.__studio.ingestionAt !== null, null, {
      timeout: TIMEOUT_MS,
    });
    const { pressedAt, liveAt, ingestionAt } = await page.evaluate(() => window.__studio);
    await studio.getByRole('button', { name: 'Stop' }).click();
    return { live: liveAt - pressedAt, ingestion: ingestionAt - pressedAt };
  } finally {
    await page.close();
    await api.call(streamRoutes.delete, { params: { id: stream.id } }).catch(() => null);
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export default async function studioBench() {
  ensureConsoleBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-studio-bench-'));
  const server = await startApi('pglite');
  let node;
  let browser;
  try {
    const token = await server.login();
    const api = apiClient(server.url, token);
    node = await startNode(server.url, token, join(dir, 'node'));
    browser = await chromium.launch({
      ...CHROMIUM,
      args: [...CHROMIUM.args, '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'],
    });
    const context = await signedInContext(browser, server.url);

    const rows = [];
    for (let index = 1; index <= ROUNDS; index++) {
      process.stderr.write(`studio bench: round ${index} of ${ROUNDS}\n`);
      rows.push({ index, ...(await round(context, server.url, api)) });
    }
    const load = loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
    const column = (name) => rows.map((row) => row[name]);
    const summary = (name) => `${Math.round(median(column(name)))} / ${Math.round(Math.max(...column(name)))}`;
    printTable(
      `Studio "Go live" pressed → on air, ms (Chromium's fake camera at 360p, WHIP to a local node); load average ${load}`,
      [
        ...rows.map((row) => ({
          round: row.index,
          'pressed → Studio: Live': Math.round(row.live),
          'pressed → dashboard Ingestion': Math.round(row.ingestion),
        })),
        {
          round: 'p50 / max',
          'pressed → Studio: Live': summary('live'),
          'pressed → dashboard Ingestion': summary('ingestion'),
        },
      ],
    );
  } finally {
    await browser?.close();
    await node?.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
