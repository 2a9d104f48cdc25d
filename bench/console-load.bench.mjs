// Issue 21, console half: the console's first load as a phone sees it. Builds the console, serves it from
// the real server and runs Lighthouse 12.2.3 (mobile preset: simulated slow 4G and a 4x slower CPU) in
// Debian's Chromium on the sign-in page (anonymous) and on the stream list (signed in). Prints the scores
// and every script and style sheet the page loaded (raw, gzip, brotli and as transferred), then checks the
// budgets: a budget exceeded sets a non-zero exit code (the benchmark fails, never the tests).
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

/** Lighthouse runs per page; the median run (by performance score) is reported. */
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
/** Streams in the signed-in account, so the list has rows to paint. */
const STREAMS = 25;
const KIB = 1024;
export const BUDGET = {
  performance: 95,
  accessibility: 100,
  lcpMs: 1500,
  scriptGzipBytes: 150 * KIB,
  styleGzipBytes: 30 * KIB,
};
const DIST = join(ROOT, 'apps/console/dist');

const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).length;
const brotliSize = (bytes) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kib = (bytes) => (bytes / KIB).toFixed(1);

/** One Lighthouse run of `url`; `token` signs the page in (set before any script of the page runs). */
async function audit(browser, url, token) {
  const page = await browser.newPage();
  try {
    if (token) {
      await page.evaluateOnNewDocument((value) => {
        if (location.protocol === 'http:') localStorage.setItem('current_token', value);
      }, token);
    }
    const result = await lighthouse(
      url,
      { logLevel: 'error', output: 'json', onlyCategories: ['performance', 'accessibility'] },
      undefined,
      page,
    );
    // A page that lost its sign-in would be measured as the sign-in page.
    if (result.lhr.finalDisplayedUrl !== url) {
      throw new Error(`${url} ended on ${result.lhr.finalDisplayedUrl}`);
    }
    if (result.lhr.runtimeError) process.stdout.write(`${url}: ${JSON.stringify(result.lhr.runtimeError)}\n`);
    for (const warning of result.lhr.runWarnings) process.stdout.write(`${url}: ${warning}\n`);
    return result.lhr;
  } finally {
    await page.close();
  }
}

/** The median run by performance score (ties: the later run). */
function median(runs) {
  const sorted = [...runs].sort((a, b) => a.categories.performance.score - b.categories.performance.score);
  return sorted[Math.floor(sorted.length / 2)];
}

const ASSET_TYPES = { Script: 'js', Stylesheet: 'css', Font: 'font' };

/** The scripts, style sheets and fonts the page loaded, with their sizes on disk, gzipped, brotli'd and as sent. */
async function firstLoadAssets(lhr, origin) {
  const items = lhr.audits['network-requests'].details.items.filter(
    (item) => item.url.startsWith(origin) && item.resourceType in ASSET_TYPES,
  );
  return Promise.all(
    items.map(async (item) => {
      const path = new URL(item.url).pathname;
      const bytes = readFileSync(join(DIST, path));
      return {
        type: ASSET_TYPES[item.resourceType],
        file: path.replace(/^\//, ''),
        raw: bytes.length,
        gzip: gzipSize(bytes),
        brotli: brotliSize(bytes),
        transferred: item.transferSize,
        encoding: await servedEncoding(item.url),
      };
    }),
  );
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

async function summarise(name, runs, origin) {
  const lhr = median(runs);
  const report = join(tmpdir(), `console-load-${name.replaceAll(' ', '-')}.json`);
  writeFileSync(report, JSON.stringify(lhr));
  const assets = await firstLoadAssets(lhr, origin);
  const total = (type, key) => assets.filter((a) => a.type === type).reduce((sum, a) => sum + a[key], 0);
  return {
    name,
    report,
    performance: Math.round(lhr.categories.performance.score * 100),
    performanceRuns: runs.map((run) => Math.round(run.categories.performance.score * 100)),
    accessibility: Math.round(lhr.categories.accessibility.score * 100),
    fcpMs: lhr.audits['first-contentful-paint'].numericValue,
    lcpMs: lhr.audits['largest-contentful-paint'].numericValue,
    tbtMs: lhr.audits['total-blocking-time'].numericValue,
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
    transferredBytes: lhr.audits['total-byte-weight'].numericValue,
    assets,
    scriptGzip: total('js', 'gzip'),
    styleGzip: total('css', 'gzip'),
    failedA11y: Object.values(lhr.audits)
      .filter((a) => lhr.categories.accessibility.auditRefs.some((r) => r.id === a.id) && a.score === 0)
      .map((a) => a.id),
  };
}

function budgetFailures(page) {
  const failures = [];
  if (page.performance < BUDGET.performance) failures.push(`performance ${page.performance} < ${BUDGET.performance}`);
  if (page.accessibility < BUDGET.accessibility) {
    failures.push(`accessibility ${page.accessibility} < ${BUDGET.accessibility} (${page.failedA11y.join(', ')})`);
  }
  if (page.lcpMs > BUDGET.lcpMs) failures.push(`LCP ${page.lcpMs.toFixed(0)} ms > ${BUDGET.lcpMs} ms`);
  if (page.scriptGzip > BUDGET.scriptGzipBytes) {
    failures.push(`JavaScript ${kib(page.scriptGzip)} KiB gzip > ${kib(BUDGET.scriptGzipBytes)} KiB`);
  }
  if (page.styleGzip > BUDGET.styleGzipBytes) {
    failures.push(`CSS ${kib(page.styleGzip)} KiB gzip > ${kib(BUDGET.styleGzipBytes)} KiB`);
  }
  for (const asset of page.assets) {
    // Fonts (woff2) are compressed already; scripts and style sheets must come brotli'd.
    if (asset.type !== 'font' && asset.encoding !== 'br') {
      failures.push(`${asset.file} was sent ${asset.encoding ?? 'uncompressed'} to a browser that takes brotli`);
    }
  }
  return failures.map((failure) => `${page.name}: ${failure}`);
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
    const pages = [
      { name: 'sign-in', url: `${api.url}/#/login` },
      { name: 'stream list', url: `${api.url}/#/streams`, token },
    ];
    const results = [];
    for (const { name, url, token: pageToken } of pages) {
      const runs = [];
      for (let run = 0; run < RUNS; run += 1) runs.push(await audit(browser, url, pageToken));
      results.push(await summarise(name, runs, api.url));
    }

    printTable(
      `Lighthouse ${RUNS > 1 ? `(median of ${RUNS} runs) ` : ''}mobile`,
      results.map((page) => ({
        page: page.name,
        performance: page.performance,
        'performance (runs)': page.performanceRuns.join(' '),
        accessibility: page.accessibility,
        'FCP ms': Math.round(page.fcpMs),
        'LCP ms': Math.round(page.lcpMs),
        'TBT ms': Math.round(page.tbtMs),
        CLS: page.cls.toFixed(3),
        'transferred KiB': kib(page.transferredBytes),
      })),
    );
    for (const page of results) {
      printTable(
        `First load of the ${page.name}: scripts, style sheets and fonts (KiB)`,
        [
          ...page.assets,
          { type: 'js', file: 'all scripts', ...sums(page.assets.filter((a) => a.type === 'js')) },
          { type: 'css', file: 'all style sheets', ...sums(page.assets.filter((a) => a.type === 'css')) },
          { type: 'font', file: 'all fonts', ...sums(page.assets.filter((a) => a.type === 'font')) },
        ].map((asset) => ({
          type: asset.type,
          file: asset.file,
          raw: kib(asset.raw),
          gzip: kib(asset.gzip),
          brotli: kib(asset.brotli),
          transferred: kib(asset.transferred),
        })),
      );
    }
    process.stdout.write(`\nLighthouse reports of the median runs: ${results.map((page) => page.report).join(', ')}\n`);
    const failures = results.flatMap(budgetFailures);
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

function sums(assets) {
  const sum = (key) => assets.reduce((total, asset) => total + asset[key], 0);
  return { raw: sum('raw'), gzip: sum('gzip'), brotli: sum('brotli'), transferred: sum('transferred') };
}
