// Issue 21, console half: the console's first load as a phone sees it. Builds the console, serves it from
// the real server and runs Lighthouse 12.2.3 (mobile preset: simulated slow 4G and a 4x slower CPU) in
// Debian's Chromium on the sign-in page (anonymous) and on the stream list (signed in). Prints the scores,
// the first load (what index.html loads before any screen's own code) and everything each page loaded, raw,
// gzip, brotli and as transferred, then checks the budgets: a budget exceeded sets a non-zero exit code (the
// benchmark fails, never the tests).
import { readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { streamRoutes } from '@streamcloud/contract';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { ensureConsoleBuilt, ROOT } from '../scripts/lib.mjs';
import { CHROMIUM, printTable, startApi } from './lib.mjs';
import { lcpCandidates, longTasks, SAMPLING_CATEGORY } from './long-tasks.mjs';

/** Lighthouse runs per page; the median run (by performance score) is reported. */
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/**
 * BENCH_PROFILE=1: each run also samples the JavaScript and prints the stream list's long tasks, split by kind
 * of work and source (bench/long-tasks.mjs). The sampling slows the page: such runs are for finding where the
 * time goes, their scores are not the figures.
 */
const PROFILE = Boolean(process.env.BENCH_PROFILE);
/** Streams in the signed-in account, so the list has rows to paint. */
const STREAMS = 25;
const KIB = 1024;
export const BUDGET = {
  performance: 95,
  accessibility: 100,
  lcpMs: 1500,
  firstLoadScriptGzip: 150 * KIB,
  firstLoadStyleGzip: 30 * KIB,
};
const DIST = join(ROOT, 'apps/console/dist');
const ASSET_TYPES = { Script: 'js', Stylesheet: 'css', Font: 'font' };

const kib = (bytes) => (bytes / KIB).toFixed(1);

/** A file of the build: its size raw, gzip -9, brotli 11, and the encoding the server answers it with. */
async function asset(origin, type, file) {
  const bytes = readFileSync(join(DIST, file));
  return {
    type,
    file,
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    encoding: await servedEncoding(`${origin}/${file}`),
  };
}

/** The Content-Encoding the server answers `url` with to a browser that accepts brotli and gzip. */
function servedEncoding(url) {
  return new Promise((resolve, reject) => {
    const request = get(url, { headers: { 'accept-encoding': 'gzip, deflate, br' } }, (response) => {
      resolve(response.headers['content-encoding']);
      response.destroy();
    });
    request.on('error', reject);
  });
}

/** The first load: the scripts, module preloads and style sheets index.html names (no screen's own code). */
async function firstLoad(origin) {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const refs = [
    ...[...html.matchAll(/<script[^>]*\bsrc="\.?\/?([^"]+)"/g)].map((m) => ['js', m[1]]),
    ...[...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="\.?\/?([^"]+)"/g)].map((m) => ['js', m[1]]),
    ...[...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="\.?\/?([^"]+)"/g)].map((m) => ['css', m[1]]),
  ];
  return Promise.all(refs.map(([type, file]) => asset(origin, type, file)));
}

/** What a Lighthouse run saw the page load from the console: scripts, style sheets, fonts. */
async function pageAssets(lhr, origin) {
  const items = lhr.audits['network-requests'].details.items.filter(
    (item) => item.url.startsWith(origin) && item.resourceType in ASSET_TYPES,
  );
  return Promise.all(
    items.map(async (item) => ({
      ...(await asset(origin, ASSET_TYPES[item.resourceType], new URL(item.url).pathname.slice(1))),
      transferred: item.transferSize,
    })),
  );
}

/** A run whose trace Lighthouse could not read (NO_NAVSTART on a loaded machine) is run again, this often. */
const TRACE_ATTEMPTS = 3;

/** One Lighthouse run of `url`; `token` signs the page in (set before any script of the page runs). */
async function audit(browser, url, token) {
  for (let attempt = 1; ; attempt += 1) {
    const lhr = await auditOnce(browser, url, token);
    if (!lhr.runtimeError || attempt === TRACE_ATTEMPTS) return lhr;
    process.stdout.write(`${url}: ${lhr.runtimeError.code}, run again\n`);
  }
}

async function auditOnce(browser, url, token) {
  const page = await browser.newPage();
  try {
    if (token) {
      await page.evaluateOnNewDocument((value) => {
        if (location.protocol === 'http:') localStorage.setItem('current_token', value);
      }, token);
    }
    const result = await lighthouse(
      url,
      {
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance', 'accessibility'],
        ...(PROFILE ? { additionalTraceCategories: [SAMPLING_CATEGORY] } : {}),
      },
      undefined,
      page,
    );
    // A page that lost its sign-in would be measured as the sign-in page.
    if (result.lhr.finalDisplayedUrl !== url) {
      throw new Error(`${url} ended on ${result.lhr.finalDisplayedUrl}`);
    }
    for (const warning of result.lhr.runWarnings) process.stdout.write(`${url}: ${warning}\n`);
    if (PROFILE && token) {
      const tbt = Math.round(result.lhr.audits['total-blocking-time'].numericValue);
      const { origin } = new URL(url);
      printTable(`${url}: long tasks (TBT ${tbt} ms)`, longTasks(result.artifacts.Trace, origin, DIST));
      printTable(`${url}: LCP candidates (observed)`, lcpCandidates(result.artifacts.Trace, origin));
    }
    return result.lhr;
  } finally {
    await page.close();
  }
}

/** The median run by performance score. */
function median(runs) {
  const sorted = [...runs].sort((a, b) => a.categories.performance.score - b.categories.performance.score);
  return sorted[Math.floor(sorted.length / 2)];
}

async function summarise(name, runs, origin) {
  const lhr = median(runs);
  const report = join(tmpdir(), `console-load-${name.replaceAll(' ', '-')}.json`);
  writeFileSync(report, JSON.stringify(lhr));
  return {
    name,
    report,
    performance: Math.round(lhr.categories.performance.score * 100),
    performanceRuns: runs.map((run) => Math.round(run.categories.performance.score * 100)),
    lcpRuns: runs.map((run) => Math.round(run.audits['largest-contentful-paint'].numericValue)),
    tbtRuns: runs.map((run) => Math.round(run.audits['total-blocking-time'].numericValue)),
    accessibility: Math.round(lhr.categories.accessibility.score * 100),
    fcpMs: lhr.audits['first-contentful-paint'].numericValue,
    lcpMs: lhr.audits['largest-contentful-paint'].numericValue,
    tbtMs: lhr.audits['total-blocking-time'].numericValue,
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
    transferredBytes: lhr.audits['total-byte-weight'].numericValue,
    assets: await pageAssets(lhr, origin),
    failedA11y: Object.values(lhr.audits)
      .filter((a) => lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id) && a.score === 0)
      .map((a) => a.id),
  };
}

const sum = (assets, type, key) => assets.filter((a) => a.type === type).reduce((total, a) => total + a[key], 0);

function printAssets(title, assets) {
  const totals = ['js', 'css', 'font']
    .filter((type) => assets.some((a) => a.type === type))
    .map((type) => ({
      type,
      file: `all (${type})`,
      ...Object.fromEntries(['raw', 'gzip', 'brotli'].map((key) => [key, sum(assets, type, key)])),
      ...(assets.some((a) => a.transferred !== undefined) ? { transferred: sum(assets, type, 'transferred') } : {}),
    }));
  printTable(
    title,
    [...assets, ...totals].map((a) => ({
      type: a.type,
      file: a.file,
      'raw KiB': kib(a.raw),
      'gzip KiB': kib(a.gzip),
      'brotli KiB': kib(a.brotli),
      ...(a.transferred === undefined ? {} : { 'transferred KiB': kib(a.transferred) }),
      sent: a.encoding ?? (a.file.startsWith('all') ? '' : 'identity'),
    })),
  );
}

/** Scripts and style sheets must come brotli'd (fonts are woff2, compressed already). */
function uncompressed(assets) {
  return assets
    .filter((a) => a.type !== 'font' && a.encoding !== 'br')
    .map((a) => `${a.file} was sent ${a.encoding ?? 'uncompressed'} to a browser that takes brotli`);
}

function budgetFailures(first, pages) {
  const failures = [];
  const firstScripts = sum(first, 'js', 'gzip');
  const firstStyles = sum(first, 'css', 'gzip');
  if (firstScripts > BUDGET.firstLoadScriptGzip) {
    failures.push(`first load: JavaScript ${kib(firstScripts)} KiB gzip > ${kib(BUDGET.firstLoadScriptGzip)} KiB`);
  }
  if (firstStyles > BUDGET.firstLoadStyleGzip) {
    failures.push(`first load: CSS ${kib(firstStyles)} KiB gzip > ${kib(BUDGET.firstLoadStyleGzip)} KiB`);
  }
  failures.push(...uncompressed(first).map((failure) => `first load: ${failure}`));
  for (const page of pages) {
    const at = (failure) => `${page.name}: ${failure}`;
    if (page.performance < BUDGET.performance) {
      failures.push(at(`performance ${page.performance} < ${BUDGET.performance}`));
    }
    if (page.accessibility < BUDGET.accessibility) {
      failures.push(
        at(`accessibility ${page.accessibility} < ${BUDGET.accessibility} (${page.failedA11y.join(', ')})`),
      );
    }
    if (page.lcpMs > BUDGET.lcpMs) failures.push(at(`LCP ${page.lcpMs.toFixed(0)} ms > ${BUDGET.lcpMs} ms`));
    failures.push(...uncompressed(page.assets).map(at));
  }
  return failures;
}

export default async function consoleLoadBench() {
  ensureConsoleBuilt({ force: true });
  const api = await startApi('pglite', { LOG_LEVEL: 'error', LOCAL_MEDIA_NODE: 'off' });
  const browser = await puppeteer.launch({ ...CHROMIUM, args: [...CHROMIUM.args, '--headless=new'] });
  try {
    const token = await api.login();
    for (let i = 1; i <= STREAMS; i += 1) {
      await api.client(token).call(streamRoutes.create, {
        body: { caption: `Camera ${i}`, format: i % 2 ? 'RTMP' : 'SRT' },
      });
    }
    const first = await firstLoad(api.url);
    const pages = [];
    const measured = [
      { name: 'sign-in', url: `${api.url}/#/login` },
      { name: 'stream list', url: `${api.url}/#/streams`, pageToken: token },
    ];
    // Profiling is about the stream list's blocking time (the sign-in page has little).
    for (const { name, url, pageToken } of PROFILE ? measured.slice(1) : measured) {
      const runs = [];
      for (let run = 0; run < RUNS; run += 1) runs.push(await audit(browser, url, pageToken));
      pages.push(await summarise(name, runs, api.url));
    }

    printTable(
      `Lighthouse ${RUNS > 1 ? `(median of ${RUNS} runs) ` : ''}mobile`,
      pages.map((page) => ({
        page: page.name,
        performance: page.performance,
        'performance (runs)': page.performanceRuns.join(' '),
        accessibility: page.accessibility,
        'FCP ms': Math.round(page.fcpMs),
        'LCP ms': Math.round(page.lcpMs),
        'TBT ms': Math.round(page.tbtMs),
        'LCP ms (runs)': page.lcpRuns.join(' '),
        'TBT ms (runs)': page.tbtRuns.join(' '),
        CLS: page.cls.toFixed(3),
        'transferred KiB': kib(page.transferredBytes),
      })),
    );
    printAssets('First load: what index.html loads (entry, module preloads, style sheets)', first);
    for (const page of pages) printAssets(`Everything the ${page.name} loaded`, page.assets);
    process.stdout.write(`\nLighthouse reports of the median runs: ${pages.map((page) => page.report).join(', ')}\n`);
    const failures = budgetFailures(first, pages);
    if (failures.length > 0) {
      process.stdout.write(`\nconsole-load: budget exceeded\n${failures.map((f) => `  - ${f}`).join('\n')}\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write('\nconsole-load: every budget met\n');
    }
  } finally {
    await browser.close();
    await api.stop();
  }
}
