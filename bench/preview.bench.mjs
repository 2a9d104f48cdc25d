// Issue 22: how long the stream dashboard's Preview card takes to show the picture of a live stream on a real
// local media node. An RTMP push of a 640x360 30 fps test pattern (-c copy) with a WebRTC and an HLS output;
// per round a fresh page opens the dashboard in Chromium and the time runs from the navigation start to the
// first video frame the preview's <video> presents (requestVideoFrameCallback), told apart by what plays:
// a MediaStream is WHEP, anything else is HLS (hls.js on Media Source).
// - WHEP: the card's default (the lowest latency); goal ≤ 1.5 s.
// - HLS: HLS is chosen in the card's Output picker as soon as it is there (the user's fastest path); goal
//   ≤ 3 s from the navigation start. The choice → first HLS frame is printed too.
// - Where the time goes, per round and step (ms from the navigation start; resource timing for the page's
//   requests, the probe below for the rest): the console's entry script loaded; the stream, its outputs and
//   the preview credential read (the dashboard's prefetch asks for all three at once); the player's chunk
//   loaded; the player's <video> in the DOM (the console's own part); the WHEP offer POSTed (the prefetch
//   opens the connection once the outputs and the credential are in) and its answer in; ICE connected and
//   DTLS done (the connection up); the first frame. So the console's part, the node's answer, the transport
//   and the wait for a keyframe are told apart.
// Fails (exit code 1) when a median misses its goal.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_BASE, streamRoutes } from '@streamcloud/contract';
import { chromium } from 'playwright-core';
import { ensureConsoleBuilt } from '../scripts/lib.mjs';
import { apiClient, CHROMIUM, pickPreviewOutput, printTable, signedInContext, startApi } from './lib.mjs';
import { makeClip, pushLiveStream, startNode } from './media-lib.mjs';

const ROUNDS = Number(process.env.BENCH_PREVIEW_ROUNDS ?? 5);
const GOALS_MS = { WHEP: 1500, HLS: 3000 };
const FRAME_TIMEOUT_MS = 30_000;

/**
 * In the page, before the console runs: the first frame presented by the preview's <video> for each kind
 * of playback (ms since the navigation start), and when the Output picker was changed.
 */
function installFrameProbe() {
  window.__preview = { firstFrame: {}, pickedAt: null, playerAt: null, iceAt: null, connectedAt: null };
  // The first peer connection's ICE check done and its DTLS handshake done (connectionState connected).
  const Native = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('iceconnectionstatechange', () => {
        if (this.iceConnectionState === 'connected') window.__preview.iceAt ??= performance.now();
      });
      this.addEventListener('connectionstatechange', () => {
        if (this.connectionState === 'connected') window.__preview.connectedAt ??= performance.now();
      });
    }
  };
  const watch = (video) => {
    const onFrame = (now) => {
      const kind = video.srcObject ? 'WHEP' : 'HLS';
      if (!(kind in window.__preview.firstFrame)) window.__preview.firstFrame[kind] = now;
      video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
  };
  const observer = new MutationObserver(() => {
    const video = document.querySelector('video[aria-label="Stream preview"]');
    if (!video) return;
    observer.disconnect();
    window.__preview.playerAt = performance.now();
    watch(video);
  });
  observer.observe(document, { childList: true, subtree: true });
  document.addEventListener('change', (event) => {
    if (event.target?.id === 'preview-output') window.__preview.pickedAt = event.timeStamp;
  });
}

/** What the dashboard shows when no frame came: status, the card's error, the <video>'s state. */
function pageState(page) {
  return page.evaluate(() => {
    const video = document.querySelector('video[aria-label="Stream preview"]');
    return JSON.stringify({
      status: document.querySelector('[data-testid="stream-status"]')?.textContent,
      alerts: [...document.querySelectorAll('[role="alert"]')].map((alert) => alert.textContent),
      video: video && {
        playing: video.srcObject ? 'MediaStream' : video.currentSrc,
        readyState: video.readyState,
        frames: video.getVideoPlaybackQuality().totalVideoFrames,
      },
      probe: window.__preview,
    });
  });
}

/** Opens the dashboard in a fresh page; `kind` HLS picks the HLS output as soon as the picker offers it. */
async function round(context, { dashboardUrl, streamId, hlsOutputId }, kind) {
  const page = await context.newPage();
  try {
    await page.addInitScript(installFrameProbe);
    await page.goto(dashboardUrl);
    if (kind === 'HLS') await pickPreviewOutput(page, hlsOutputId, FRAME_TIMEOUT_MS);
    await page
      .waitForFunction((wanted) => wanted in (window.__preview?.firstFrame ?? {}), kind, { timeout: FRAME_TIMEOUT_MS })
      .catch(async (error) => {
        throw new Error(`${kind}: no preview frame in ${FRAME_TIMEOUT_MS} ms; the page: ${await pageState(page)}`, {
          cause: error,
        });
      });
    const { firstFrame, pickedAt, playerAt, iceAt, connectedAt, resources } = await page.evaluate(() => ({
      ...window.__preview,
      resources: performance
        .getEntriesByType('resource')
        .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime, end: entry.responseEnd })),
    }));
    // Resource timing: when the page's own requests went (start) or came back (end), by path.
    const at = (pattern, edge = 'end') => resources.find((entry) => pattern.test(entry.path))?.[edge] ?? null;
    const whep = /\/whep\/[^/]+$/;
    return {
      js: at(/\/assets\/index-[^/]+\.js$/),
      stream: at(new RegExp(`${API_BASE}/inputs/${streamId}$`)),
      outputs: at(new RegExp(`${API_BASE}/outputs$`)),
      credential: at(new RegExp(`${API_BASE}/inputs/${streamId}/preview$`)),
      chunk: at(/\/assets\/preview-player-[^/]+\.js$/),
      player: playerAt,
      offerSent: at(whep, 'start'),
      answered: at(whep),
      ice: iceAt,
      connected: connectedAt,
      frame: firstFrame[kind],
      picked: kind === 'HLS' ? firstFrame[kind] - pickedAt : null,
    };
  } finally {
    await page.close();
  }
}

/** The rows of the table: [label, which round, its step]. */
const STEPS = [
  ['console entry script loaded', 'whep', 'js'],
  ['stream read', 'whep', 'stream'],
  ['outputs read', 'whep', 'outputs'],
  ['preview credential in', 'whep', 'credential'],
  ['player chunk loaded', 'whep', 'chunk'],
  ['player on screen', 'whep', 'player'],
  ['WHEP offer sent', 'whep', 'offerSent'],
  ['WHEP answer in', 'whep', 'answered'],
  ['WHEP ICE connected', 'whep', 'ice'],
  ['WHEP DTLS connected', 'whep', 'connected'],
  ['WHEP first frame', 'whep', 'frame'],
  ['HLS first frame', 'hls', 'frame'],
  ['HLS picked → frame', 'hls', 'picked'],
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => (value === null ? '' : Math.round(value));
const summarise = (values) => {
  const measured = values.filter((value) => value !== null);
  return measured.length === 0 ? '' : `${ms(median(measured))} / ${ms(Math.max(...measured))}`;
};

export default async function previewBench() {
  ensureConsoleBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'streamcloud-preview-bench-'));
  const clip = makeClip(dir);
  const server = await startApi('pglite');
  let node;
  let push;
  let browser;
  try {
    const token = await server.login();
    const api = apiClient(server.url, token);
    node = await startNode(server.url, token, join(dir, 'node'));
    let stream;
    ({ stream, push } = await pushLiveStream(server.url, token, clip, 'preview bench'));
    await api.call(streamRoutes.createOutput, { body: { streamId: stream.id, format: 'WebRTC' } });
    const hls = await api.call(streamRoutes.createOutput, {
      body: { streamId: stream.id, format: 'HLS', hlsLatency: 'Standard' },
    });

    browser = await chromium.launch(CHROMIUM);
    const context = await signedInContext(browser, server.url);

    const page = {
      dashboardUrl: `${server.url}/#/streams/view/${stream.id}`,
      streamId: stream.id,
      hlsOutputId: hls.id,
    };
    const rounds = [];
    for (let index = 1; index <= ROUNDS; index++) {
      process.stderr.write(`preview bench: round ${index} of ${ROUNDS}\n`);
      rounds.push({ whep: await round(context, page, 'WHEP'), hls: await round(context, page, 'HLS') });
    }
    const load = loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
    const medians = {
      WHEP: median(rounds.map((one) => one.whep.frame)),
      HLS: median(rounds.map((one) => one.hls.frame)),
    };
    // One row per step, one column per round: where the time to the WHEP frame goes, in the order it goes.
    printTable(
      `Dashboard opened → first decoded frame of the preview, ms from the navigation start (640x360 30 fps ` +
        `RTMP push, local node; goals on the median: WHEP ≤ ${GOALS_MS.WHEP}, HLS ≤ ${GOALS_MS.HLS}); ` +
        `load average ${load}`,
      STEPS.map(([label, kind, step]) => {
        const values = rounds.map((one) => one[kind][step]);
        return {
          step: label,
          ...Object.fromEntries(values.map((value, index) => [`round ${index + 1}`, ms(value ?? null)])),
          'p50 / max': summarise(values.map((value) => value ?? null)),
        };
      }),
    );
    const missed = Object.entries(medians).filter(([kind, p50]) => p50 > GOALS_MS[kind]);
    for (const [kind, p50] of missed)
      process.stderr.write(`preview bench: ${kind} median ${ms(p50)} ms misses its goal of ${GOALS_MS[kind]} ms\n`);
    if (missed.length > 0) process.exitCode = 1;
  } finally {
    await browser?.close();
    push?.kill('SIGKILL');
    await node?.stop();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
