// Issue 37: the embeddable player (/play/{outputId}) on a cold page, against a real local media node. An RTMP push
// of a 640x360 30 fps test pattern (-c copy) with a WebRTC output and an HLS output (Standard latency: the WebRTC
// output's fallback). Per round a fresh browser context (no cache, no connection kept) opens the WebRTC output's
// embed and the time runs from the navigation start to the first video frame its <video> presents
// (requestVideoFrameCallback):
// - WHEP: the page as it is; goal ≤ 1.5 s (the console's preview's).
// - HLS: the same page with RTCPeerConnection taken away (a browser without WebRTC), so it falls back to the HLS
//   output and loads hls.js; goal ≤ 3 s.
// - The page's weight before its first paint: play.html and every script and style sheet the WHEP page loaded,
//   gzip (the build's .gz files); budget ≤ 60 KiB, and hls.js must not be among them.
// - The encoder dropping and coming back (`BENCH_EMBED_DROPS`, default 1): with a WHEP and an HLS page open, the
//   push is killed, the stream goes Idle and both pages stop showing frames (HLS plays its buffer out first), the
//   push starts again: push restarted → each page presented a second of frames (both pages find their way back by themselves).
//   Goal: within 30 s.
// Fails (exit code 1) when a median misses its goal, the budget is exceeded, hls.js is loaded by the WHEP page or a
// page does not come back after the drop.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamRoutes } from '@streamcloud/contract';
import { chromium } from 'playwright-core';
import { ensureConsoleBuilt, ROOT } from '../scripts/lib.mjs';
import { apiClient, CHROMIUM, printTable, startApi } from './lib.mjs';
import { makeClip, pushClip, pushLiveStream, sleep, startNode } from './media-lib.mjs';

const ROUNDS = Number(process.env.BENCH_EMBED_ROUNDS ?? 5);
const DROPS = Number(process.env.BENCH_EMBED_DROPS ?? 1);
const GOALS_MS = { WHEP: 1500, HLS: 3000 };
const BUDGET_GZIP = 60 * 1024;
const BACK_WITHIN_MS = 30_000;
const FRAME_TIMEOUT_MS = 30_000;
const DIST = join(ROOT, 'apps/console/dist');
const HLS_JS = /\/assets\/hls-(?!playback-)[^/]+\.js$/;

/** In the page, before it runs: every frame the player's <video> presents, counted, and the first one's time. */
function installFrameProbe(withoutWebRtc) {
  if (withoutWebRtc) delete window.RTCPeerConnection;
  window.__embed = { firstFrame: null, frames: 0, lastFrameAt: null };
  const watch = (video) => {
    const onFrame = (now) => {
      window.__embed.firstFrame ??= now;
      window.__embed.frames++;
      window.__embed.lastFrameAt = now;
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  };
  const observer = new MutationObserver(() => {
    const video = document.querySelector('video[aria-label="Live stream"]');
    if (!video) return;
    observer.disconnect();
    watch(video);
  });
  observer.observe(document, { childList: true, subtree: true });
}

const pageState = (page) =>
  page.evaluate(() =>
    JSON.stringify({ status: document.querySelector('[role="status"]')?.textContent, probe: window.__embed }),
  );

/** A fresh context's page on the embed, without WebRTC for `kind` HLS. */
async function openEmbed(browser, url, kind) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(installFrameProbe, kind === 'HLS');
  await page.goto(url);
  return { context, page };
}

async function firstFrame(page, kind) {
  await page
    .waitForFunction(() => window.__embed?.firstFrame !== null, null, { timeout: FRAME_TIMEOUT_MS })
    .catch(async (error) => {
      throw new Error(`${kind}: no frame in ${FRAME_TIMEOUT_MS} ms; the page: ${await pageState(page)}`, {
        cause: error,
      });
    });
  return page.evaluate(() => window.__embed.firstFrame);
}

/** The gzip size of a built asset (its .gz beside it; the file itself when the build left it uncompressed). */
const gzipSize = (path) =>
  statSync(existsSync(join(DIST, `${path}.gz`)) ? join(DIST, `${path}.gz`) : join(DIST, path)).size;

/** One cold page of `kind`: its first frame, and (WHEP) what it loaded. */
async function round(browser, url, kind) {
  const { context, page } = await openEmbed(browser, url, kind);
  try {
    const frame = await firstFrame(page, kind);
    const assets = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name))
        .filter((found) => found.origin === location.origin && found.pathname.startsWith('/assets/'))
        .map((found) => found.pathname),
    );
    return { frame, assets };
  } finally {
    await context.close();
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => (value === null || value === undefined ? '' : Math.round(value));

export default async function embedBench() {
  ensureConsoleBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-embed-bench-'));
  const clip = makeClip(dir, { bFrames: false });
  const server = await startApi('pglite');
  let node;
  let push;
  let browser;
  const failures = [];
  try {
    const token = await server.login();
    const api = apiClient(server.url, token);
    node = await startNode(server.url, token, join(dir, 'node'));
    let stream;
    ({ stream, push } = await pushLiveStream(server.url, token, clip, 'embed bench'));
    const output = await api.call(streamRoutes.createOutput, { body: { streamId: stream.id, format: 'WebRTC' } });
    await api.call(streamRoutes.createOutput, {
      body: { streamId: stream.id, format: 'HLS', hlsLatency: 'Standard' },
    });
    const url = `${server.url}/play/${output.id}`;
    browser = await chromium.launch(CHROMIUM);

    const rounds = [];
    for (let index = 1; index <= ROUNDS; index++) {
      process.stderr.write(`embed bench: round ${index} of ${ROUNDS}\n`);
      rounds.push({ WHEP: await round(browser, url, 'WHEP'), HLS: await round(browser, url, 'HLS') });
    }
    const whepAssets = [...new Set(rounds.flatMap((one) => one.WHEP.assets))];
    const weight = whepAssets.reduce((sum, path) => sum + gzipSize(path), gzipSize('/play.html'));
    const hlsOnWhep = whepAssets.filter((path) => HLS_JS.test(path));
    const hlsLoaded = rounds.some((one) => one.HLS.assets.some((path) => HLS_JS.test(path)));
    const load = loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
    printTable(
      `Embed page opened (a cold context) → first frame presented, ms from the navigation start (640x360 30 fps ` +
        `RTMP push, local node; goals on the median: WHEP ≤ ${GOALS_MS.WHEP}, HLS ≤ ${GOALS_MS.HLS}); load average ${load}`,
      ['WHEP', 'HLS'].map((kind) => {
        const values = rounds.map((one) => one[kind].frame);
        return {
          playback: kind === 'HLS' ? 'HLS (no WebRTC: the fallback)' : 'WHEP',
          ...Object.fromEntries(values.map((value, index) => [`round ${index + 1}`, ms(value)])),
          'p50 / max': `${ms(median(values))} / ${ms(Math.max(...values))}`,
        };
      }),
    );
    printTable('The WHEP page before its first paint (gzip)', [
      {
        files: ['/play.html', ...whepAssets].join(' '),
        'gzip KiB': (weight / 1024).toFixed(1),
        'budget KiB': BUDGET_GZIP / 1024,
        'hls.js loaded': hlsOnWhep.length > 0 ? 'yes' : 'no',
        'hls.js on the fallback': hlsLoaded ? 'yes' : 'no',
      },
    ]);
    for (const kind of ['WHEP', 'HLS']) {
      const p50 = median(rounds.map((one) => one[kind].frame));
      if (p50 > GOALS_MS[kind]) failures.push(`${kind} median ${ms(p50)} ms misses its goal of ${GOALS_MS[kind]} ms`);
    }
    if (weight > BUDGET_GZIP) failures.push(`the WHEP page weighs ${weight} bytes gzip > ${BUDGET_GZIP}`);
    if (hlsOnWhep.length > 0) failures.push(`the WHEP page loaded hls.js: ${hlsOnWhep.join(', ')}`);
    if (!hlsLoaded) failures.push('the fallback page never loaded hls.js: it did not play HLS');

    // The encoder drops and comes back, with a WHEP and an HLS page open.
    const drops = [];
    for (let index = 1; index <= DROPS; index++) {
      process.stderr.write(`embed bench: drop ${index} of ${DROPS}\n`);
      const pages = {
        WHEP: await openEmbed(browser, url, 'WHEP'),
        HLS: await openEmbed(browser, url, 'HLS'),
      };
      try {
        for (const [kind, { page }] of Object.entries(pages)) await firstFrame(page, kind);
        push.kill('SIGKILL');
        const droppedAt = performance.now();
        while ((await api.call(streamRoutes.get, { params: { id: stream.id } })).status !== 'Idle') {
          if (performance.now() - droppedAt > 30_000) throw new Error('the stream did not go Idle');
          await sleep(200);
        }
        const idle = performance.now() - droppedAt;
        // Both pages stopped showing the old push (HLS plays what it buffered first), so the next frame is the new one's.
        for (const [kind, { page }] of Object.entries(pages))
          await page
            .waitForFunction(() => performance.now() - (window.__embed?.lastFrameAt ?? 0) > 1000, null, {
              timeout: 30_000,
            })
            .catch(async (error) => {
              throw new Error(`${kind}: the page still plays 30 s after the push left: ${await pageState(page)}`, {
                cause: error,
              });
            });
        push = pushClip(clip, stream.connection.uri);
        const restarted = performance.now();
        const marks = Object.fromEntries(
          await Promise.all(
            Object.entries(pages).map(async ([kind, { page }]) => {
              // A second of the clip's frames presented after the push started again (a stalled player may show a
              // frame or two of its buffer when it nudges past a gap).
              const before = await page.evaluate(() => window.__embed.frames);
              const back = await page
                .waitForFunction((count) => window.__embed.frames >= count, before + 30, {
                  timeout: BACK_WITHIN_MS,
                })
                .then(
                  () => performance.now() - restarted,
                  async () => {
                    process.stderr.write(`embed bench: ${kind} after the drop: ${await pageState(page)}\n`);
                    return null;
                  },
                );
              return [kind, back];
            }),
          ),
        );
        drops.push({ idle, ...marks });
        for (const [kind, back] of Object.entries(marks))
          if (back === null) failures.push(`${kind}: no frame within ${BACK_WITHIN_MS} ms of the push coming back`);
      } finally {
        for (const { context } of Object.values(pages)) await context.close();
      }
    }
    if (drops.length > 0)
      printTable(
        'The encoder drops and comes back: push killed → stream Idle, push restarted → 30 frames presented (ms)',
        drops.map((one, index) => ({
          drop: index + 1,
          'killed → Idle': ms(one.idle),
          'restart → WHEP 30 frames': one.WHEP === null ? 'never' : ms(one.WHEP),
          'restart → HLS 30 frames': one.HLS === null ? 'never' : ms(one.HLS),
        })),
      );
    for (const failure of failures) process.stderr.write(`embed bench: ${failure}\n`);
    if (failures.length > 0) process.exitCode = 1;
  } finally {
    await browser?.close();
    push?.kill('SIGKILL');
    await node?.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
