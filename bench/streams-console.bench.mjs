// Issue 4, console half: with 10,000 streams, how long the stream list takes in Chromium from its first
// request to the rows painted, and from a search keystroke to the filtered rows painted.
import { streamRoutes } from '@streamcloud/contract';
import { chromium } from 'playwright-core';
import { ensureConsoleBuilt } from '../scripts/lib.mjs';
import { CHROMIUM, copyInput, printTable, signedInContext, startApi } from './lib.mjs';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 10_000);
/** One input is created over the API, the rest are copies of it made in SQL. */
const ENGINE = process.env.BENCH_ENGINE ?? 'postgres';
const SEARCH = process.env.BENCH_SEARCH ?? '0420';

const FORMATS = ['WebRTC', 'RTMP', 'SRT'];

/**
 * In the page: marks when the stream list first has rows on screen (two animation frames after they
 * enter the DOM: the frame that paints them has been produced), and lets a search keystroke be timed.
 */
function installProbes() {
  const painted = (callback) => requestAnimationFrame(() => requestAnimationFrame(() => callback(performance.now())));
  window.__bench = { rowsPaintedAt: null };
  const watch = new MutationObserver(() => {
    if (window.__bench.rowsPaintedAt !== null) return;
    if (document.querySelector('ul[aria-label="Streams"] > li')) {
      window.__bench.rowsPaintedAt = -1;
      painted((at) => {
        window.__bench.rowsPaintedAt = at;
      });
    }
  });
  document.addEventListener('DOMContentLoaded', () => watch.observe(document.body, { childList: true, subtree: true }));
}

/**
 * Types one key into the search box; answers the ms from the keydown to the painted frame in which the
 * list shows the filtered rows (the list says which search it applied in data-applied-search).
 */
async function timeKeystroke(page, key) {
  await page.evaluate(() => {
    const input = document.querySelector('input[aria-label="Search"]');
    window.__keystroke = new Promise((resolve) => {
      input.addEventListener(
        'keydown',
        (event) => {
          const start = event.timeStamp;
          const applied = () =>
            document.querySelector('p[data-applied-search]')?.getAttribute('data-applied-search') === input.value;
          const finish = () =>
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - start)));
          // The typed character is in the input once the keydown is over.
          setTimeout(() => {
            if (applied()) return finish();
            const observer = new MutationObserver(() => {
              if (!applied()) return;
              observer.disconnect();
              finish();
            });
            observer.observe(document.querySelector('main'), { subtree: true, attributes: true, childList: true });
          }, 0);
        },
        { once: true, capture: true },
      );
    });
  });
  await page.keyboard.press(key);
  return page.evaluate(() => window.__keystroke);
}

export default async function streamsConsoleBench() {
  ensureConsoleBuilt();
  const api = await startApi(ENGINE, { LOG_LEVEL: 'error' });
  const browser = await chromium.launch(CHROMIUM);
  try {
    const token = await api.login();
    const insertStart = performance.now();
    const template = await api
      .client(token)
      .call(streamRoutes.create, { body: { caption: 'Bench 00000', format: 'RTMP' } });
    await api.sql((query) => copyInput(query, template.id, STREAMS, FORMATS));
    const insertSeconds = (performance.now() - insertStart) / 1000;

    const context = await signedInContext(browser, api.url);
    const page = await context.newPage();

    // A cold load of the list: first request of GET /inputs to the first rows painted.
    await page.addInitScript(installProbes);
    await page.goto(`${api.url}/#/streams`);
    await page.waitForFunction(() => (window.__bench?.rowsPaintedAt ?? -1) > 0, null, { timeout: 60_000 });
    const firstPage = await page.evaluate(() => {
      const request = performance.getEntriesByType('resource').find((entry) => entry.name.includes('/api/v1/inputs?'));
      return { requestStart: request?.startTime ?? Number.NaN, painted: window.__bench.rowsPaintedAt };
    });

    // Every stream loaded: 'More' until the list holds them all.
    const loadedCount = () =>
      page.evaluate(() =>
        Number(/^(\d+) of/.exec(document.querySelector('p[aria-live="polite"]')?.textContent ?? '')?.[1]),
      );
    const loadAllStart = performance.now();
    for (let loaded = await loadedCount(); loaded < STREAMS; ) {
      await page.getByRole('button', { name: 'More' }).click();
      await page.waitForFunction(
        (before) =>
          Number(/^(\d+) of/.exec(document.querySelector('p[aria-live="polite"]')?.textContent ?? '')?.[1]) > before,
        loaded,
        { timeout: 60_000 },
      );
      loaded = await loadedCount();
    }
    const loadAllSeconds = (performance.now() - loadAllStart) / 1000;
    const renderedRows = await page.locator('ul[aria-label="Streams"] > li').count();

    // Search keystrokes against all of them.
    // Back at the top at once (Bootstrap scrolls smoothly, which would run into the first keystroke).
    await page.evaluate(
      () =>
        new Promise((resolve) => {
          window.scrollTo({ top: 0, behavior: 'instant' });
          setTimeout(resolve, 500);
        }),
    );
    await page.getByRole('searchbox', { name: 'Search' }).focus();
    const keystrokes = [];
    for (const key of SEARCH) keystrokes.push(await timeKeystroke(page, key));
    const shown = await page.locator('p[aria-live="polite"]').textContent();
    // Clearing the search brings back every row.
    await page.keyboard.press('Control+A');
    const backToAll = await timeKeystroke(page, 'Backspace');

    printTable(`Stream list in Chromium with ${STREAMS} streams`, [
      {
        measure: `create ${STREAMS} inputs on ${ENGINE} (1 over the API, the rest in SQL), s`,
        value: insertSeconds.toFixed(1),
      },
      {
        measure: 'first GET /inputs request -> first rows painted, ms',
        value: (firstPage.painted - firstPage.requestStart).toFixed(1),
      },
      { measure: `load all ${STREAMS} with 'More' (pages of 200), s`, value: loadAllSeconds.toFixed(1) },
      { measure: 'rows in the DOM with all loaded', value: renderedRows },
      ...keystrokes.map((ms, index) => ({
        measure: `keystroke '${SEARCH.slice(0, index + 1)}' -> filtered rows painted, ms`,
        value: ms.toFixed(1),
      })),
      { measure: 'clearing the search -> all rows painted, ms', value: backToAll.toFixed(1) },
      { measure: 'after the search', value: shown?.trim() ?? '' },
    ]);
  } finally {
    await browser.close();
    await api.stop();
  }
}
