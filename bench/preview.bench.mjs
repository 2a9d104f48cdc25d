// Issue 22: how long the stream dashboard's Preview card takes to show the picture of a live stream on a real
// local media node. An RTMP push of a 640x360 30 fps test pattern (-c copy) with a WebRTC and an HLS output;
// per round a fresh page opens the dashboard in Chromium and the time runs from the navigation start to the
// first video frame the preview's <video> presents (requestVideoFrameCallback), told apart by what plays:
// a MediaStream is WHEP, anything else is HLS (hls.js on Media Source).
// - WHEP: the card's default (the lowest latency); goal ≤ 1.5 s.
// - HLS: HLS is chosen in the card's Output picker as soon as it is there (the user's fastest path); goal
//   ≤ 3 s from the navigation start. The choice → first HLS frame is printed too.
// - WHEP: navigation → the offer POSTed and its answer in (resource timing), to tell ICE gathering and the
//   node's answer from the time to the first frame; and → the warm-up POSTed (`<WHEP URL>/warm`, the
//   dashboard's prefetch: the node starts its feed then).
// - WHEP: navigation → ICE connected and → the connection up (DTLS done), to tell the transport's part from
//   the wait for a keyframe and the jitter buffer (connection up → frame).
// - navigation → the player's <video> in the DOM (the console's own part: bundle, sign-in state, the stream,
//   its outputs, the preview credential, the player's lazy chunk), to tell the console from the media.
// Fails (exit code 1) when a median misses its goal.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { streamRoutes } from '@streamcloud/contract';
import { chromium } from 'playwright-core';
import { ensureConsoleBuilt } from '../scripts/lib.mjs';
import { apiClient, CHROMIUM, printTable, signedInContext, startApi } from './lib.mjs';
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
async function round(context, dashboardUrl, kind, hlsOutputId) {
  const page = await context.newPage();
  try {
    await page.addInitScript(installFrameProbe);
    await page.goto(dashboardUrl);
    if (kind === 'HLS') {
      const picker = page.getByRole('region', { name: 'Preview' }).getByRole('combobox', { name: 'Output' });
      await picker.locator(`option[value="${hlsOutputId}"]`).waitFor({ state: 'attached', timeout: FRAME_TIMEOUT_MS });
      await picker.selectOption(hlsOutputId);
    }
    await page
      .waitForFunction((wanted) => wanted in (window.__preview?.firstFrame ?? {}), kind, { timeout: FRAME_TIMEOUT_MS })
      .catch(async (error) => {
        throw new Error(`${kind}: no preview frame in ${FRAME_TIMEOUT_MS} ms; the page: ${await pageState(page)}`, {
          cause: error,
        });
      });
    const { firstFrame, pickedAt, playerAt, iceAt, connectedAt, offer, warm } = await page.evaluate(() => {
      const fetches = performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.includes('/whep/') && entry.initiatorType === 'fetch');
      return {
        ...window.__preview,
        // The WHEP offer's POST (resource timing: sent, answered), to tell the browser's part from the node's;
        // and the warm-up the dashboard's prefetch sends before it (the node starts its feed then).
        offer: fetches.find((entry) => !entry.name.endsWith('/warm')),
        warm: fetches.find((entry) => entry.name.endsWith('/warm')),
      };
    });
    return {
      frame: firstFrame[kind],
      player: playerAt,
      offer: offer ? { sent: offer.startTime, answered: offer.responseEnd } : null,
      warm: warm ? warm.startTime : null,
      ice: iceAt,
      connected: connectedAt,
      picked: kind === 'HLS' ? firstFrame[kind] - pickedAt : null,
    };
  } finally {
    await page.close();
  }
}

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
    const hls = await api.call(streamRoutes.createOutput, { body: { streamId: stream.id, format: 'HLS' } });

    browser = await chromium.launch(CHROMIUM);
    const context = await signedInContext(browser, server.url);

    const dashboardUrl = `${server.url}/#/streams/view/${stream.id}`;
    const rows = [];
    for (let index = 1; index <= ROUNDS; index++) {
      process.stderr.write(`preview bench: round ${index} of ${ROUNDS}\n`);
      const whep = await round(context, dashboardUrl, 'WHEP');
      const hlsRound = await round(context, dashboardUrl, 'HLS', hls.id);
      rows.push({
        index,
        player: whep.player,
        warm: whep.warm,
        offerSent: whep.offer?.sent ?? null,
        answered: whep.offer?.answered ?? null,
        ice: whep.ice,
        connected: whep.connected,
        whep: whep.frame,
        hls: hlsRound.frame,
        picked: hlsRound.picked,
      });
    }
    const load = loadavg()
      .map((value) => value.toFixed(1))
      .join(' ');
    const column = (name) => rows.map((row) => row[name]);
    const medians = { WHEP: median(column('whep')), HLS: median(column('hls')) };
    printTable(
      `Dashboard opened → first decoded frame of the preview, ms (640x360 30 fps RTMP push, local node; ` +
        `goals on the median: WHEP ≤ ${GOALS_MS.WHEP}, HLS ≤ ${GOALS_MS.HLS}); load average ${load}`,
      [
        ...rows.map((row) => ({
          round: row.index,
          'WHEP: navigation → warm-up sent': ms(row.warm),
          'navigation → player on screen': ms(row.player),
          'WHEP: navigation → offer sent': ms(row.offerSent),
          'WHEP: navigation → answer in': ms(row.answered),
          'WHEP: → ICE connected': ms(row.ice),
          'WHEP: → DTLS connected': ms(row.connected),
          'WHEP: navigation → frame': ms(row.whep),
          'HLS: navigation → frame': ms(row.hls),
          'HLS: picked → frame': ms(row.picked),
        })),
        {
          round: 'p50 / max',
          'WHEP: navigation → warm-up sent': summarise(column('warm')),
          'navigation → player on screen': summarise(column('player')),
          'WHEP: navigation → offer sent': summarise(column('offerSent')),
          'WHEP: navigation → answer in': summarise(column('answered')),
          'WHEP: → ICE connected': summarise(column('ice')),
          'WHEP: → DTLS connected': summarise(column('connected')),
          'WHEP: navigation → frame': summarise(column('whep')),
          'HLS: navigation → frame': summarise(column('hls')),
          'HLS: picked → frame': summarise(column('picked')),
        },
      ],
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
