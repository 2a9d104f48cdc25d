import { existsSync, statSync } from 'node:fs';
import { type Browser, chromium, expect, type Locator, type Page, test } from '@playwright/test';
import { analyticsRoutes, BEACON_MAX_BYTES, playRoutes, streamRoutes } from '@streamcloud/contract';
import chromiumArgs from '../chromium-args.json' with { type: 'json' };
import { api } from '../support/api';
import { accountWithStreamOnLocalNode, pushTestPattern, useLocalMediaNode } from '../support/media';
import { apiCreateOutput } from '../support/streams';

// The embeddable player and its viewer beacon (issue 37) end to end, on one push: the embed plays a live WebRTC
// output over WHEP without loading hls.js, within the 60 KiB gzip budget, and its session is in the stream's
// analytics within 10 s; a forged and an oversized beacon are refused and change nothing; in a page without
// WebRTC the same embed falls back to the stream's HLS output, whose session shows within 10 s too, and a stall
// the browser's own network throttling causes there shows as rebuffering; a browser that may not send WebRTC's UDP
// (a firewall's, here Chromium's own policy) gets no media over WHEP and plays the HLS fallback; the WHEP page survives the encoder
// dropping and coming back (~15 s of waiting on the connection's loss and the node's new feed; the embed bench
// times it).
test.describe.configure({ timeout: 120_000 });

useLocalMediaNode();

/** The console's build the server serves (`npm test -- e2e` builds it): its gzip files tell the page's weight. */
const DIST = new URL('../../apps/console/dist/', import.meta.url);
/** The embed's budget: what a WHEP page loads before its first paint, gzip. */
const EMBED_BUDGET_GZIP = 60 * 1024;
/** hls.js itself (not `hls-playback`, its small wrapper the page has from the start). */
const HLS_JS = /\/assets\/hls-(?!playback-)[^/]+\.js$/;

const framesOf = (video: Locator) =>
  video.evaluate((element: HTMLVideoElement) => element.getVideoPlaybackQuality().totalVideoFrames);
const timeOf = (video: Locator) => video.evaluate((element: HTMLVideoElement) => element.currentTime);

/** The page's own assets (play.html's scripts, styles), by path, as the resource timing saw them. */
const assetsOf = (page: Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'))
      .map((url) => url.pathname),
  );

/** The gzip size of a built asset (its .gz beside it; the file itself when the build left it uncompressed). */
function gzipSize(path: string): number {
  const file = new URL(`.${path}`, DIST);
  const gz = new URL(`.${path}.gz`, DIST);
  return statSync(existsSync(gz) ? gz : file).size;
}

test("the embed plays WHEP, falls back to HLS without WebRTC, stalls when throttled, survives the encoder's drop; its beacons reach the analytics", async ({
  page,
  browser,
  request,
}) => {
  const { token, stream } = await accountWithStreamOnLocalNode(request, 'Analytics');
  const owner = api(request, token);
  const output = await apiCreateOutput(request, token, stream.id, 'WebRTC');
  // The WebRTC output's fallback: the stream's HLS output of the same access (Low latency, the default: a small
  // buffer, so a throttled network stalls it within a second or two).
  await owner.call(streamRoutes.createOutput, { body: { streamId: stream.id, format: 'HLS', hlsLatency: 'Standard' } });
  const uri = (stream.connection as { uri: string }).uri;
  let push = pushTestPattern(uri, 'flv', 90);
  let udpBlocked: Browser | undefined;
  const window = () => ({
    from: new Date(Date.now() - 3600_000).toISOString(),
    to: new Date(Date.now() + 60_000).toISOString(),
  });
  const analytics = () => owner.call(analyticsRoutes.stream, { params: { id: stream.id }, query: window() });
  const sessions = async () =>
    (await owner.call(analyticsRoutes.sessions, { params: { id: stream.id }, query: window() })).sessions;
  const hlsRequested: string[] = [];
  page.on('request', (sent) => {
    if (HLS_JS.test(new URL(sent.url()).pathname)) hlsRequested.push(sent.url());
  });
  const streamStatus = async () => (await owner.call(streamRoutes.get, { params: { id: stream.id } })).status;
  // Opened once the stream is live, the pages play at their first read (not at their next poll, seconds later).
  await expect.poll(streamStatus, { timeout: 30_000 }).toBe('Ingestion');
  // The same embed in a page without WebRTC, beside it: it plays the stream's HLS output (hls.js loaded now).
  const noWebRtc = await browser.newPage();
  try {
    await noWebRtc.addInitScript(() => {
      delete (window as { RTCPeerConnection?: unknown }).RTCPeerConnection;
    });
    const hlsLoaded = noWebRtc.waitForRequest((sent) => HLS_JS.test(new URL(sent.url()).pathname));
    // Its viewer session: the one the page's first read of its output was given.
    const firstRead = noWebRtc.waitForResponse((answer) => answer.url().includes(`/api/v1/play/${output.id}`));
    await Promise.all([page.goto(`/play/${output.id}`), noWebRtc.goto(`/play/${output.id}`)]);
    const hlsSessionId = ((await (await firstRead).json()) as { viewerSession: string }).viewerSession.split('.')[1];

    const video = page.getByLabel('Live stream');
    const fallback = noWebRtc.getByLabel('Live stream');
    await expect.poll(() => framesOf(video), { timeout: 45_000 }).toBeGreaterThan(0);
    await expect.poll(() => timeOf(fallback), { timeout: 30_000 }).toBeGreaterThan(0);
    await hlsLoaded;
    // The first frame's startup event is sent at once: both sessions are in the analytics within 10 s.
    await expect.poll(async () => (await analytics()).viewers, { timeout: 10_000 }).toBe(2);
    const seen = await analytics();
    expect(seen.ttffMs.median).toBeGreaterThan(0);
    expect(seen.breakdowns.browser.map((group) => group.value)).toEqual(['Chrome']);
    expect(seen.breakdowns.country.map((group) => group.value)).toEqual(['unknown']);
    const listed = await sessions();
    expect(listed.map(({ outputId, player, device }) => ({ outputId, player, device }))).toEqual(
      Array(2).fill({ outputId: output.id, player: 'embed', device: 'desktop' }),
    );
    const session = listed.find((each) => each.id !== hlsSessionId);
    expect(session).toBeDefined();
    const eventsBefore = (await owner.call(analyticsRoutes.session, { params: { id: session?.id ?? '' } })).timeline
      .length;

    // The WHEP page never loaded hls.js, and what it loaded is within the budget.
    expect(hlsRequested).toEqual([]);
    const assets = await assetsOf(page);
    expect(assets.some((path) => path.endsWith('.js'))).toBe(true);
    const weight = assets.reduce((sum, path) => sum + gzipSize(path), gzipSize('/play.html'));
    expect(weight, `the WHEP page's assets: ${assets.join(', ')}`).toBeLessThanOrEqual(EMBED_BUDGET_GZIP);

    // A forged credential (another session id under a real one's signature) and an oversized batch: refused.
    const url = owner.url(analyticsRoutes.beacon, { params: { id: output.id } });
    const issued = (await api(request).call(playRoutes.info, { params: { id: output.id } })).viewerSession;
    const [version, , expiry, signature] = issued.split('.');
    const forged = [version, session?.id, expiry, signature].join('.');
    const events = [{ type: 'watch', at: 1000, watchedMs: 600_000 }];
    const refusedForged = await request.post(url, { data: { session: forged, player: 'embed', sentAt: 1000, events } });
    expect(refusedForged.status()).toBe(403);
    const oversized = { session: issued, player: 'embed', sentAt: 1000, events, padding: 'x'.repeat(BEACON_MAX_BYTES) };
    expect((await request.post(url, { data: oversized })).status()).toBe(413);
    const after = await owner.call(analyticsRoutes.session, { params: { id: session?.id ?? '' } });
    expect(after.timeline.length).toBeGreaterThanOrEqual(eventsBefore);
    expect(after.timeline.some((event) => event.type === 'watch' && event.value === 600_000)).toBe(false);
    expect((await analytics()).viewers).toBe(2);

    // A browser whose WebRTC may not use UDP (as behind a firewall that drops it): the WHEP answer comes, ICE never
    // connects, and the page gives way to the HLS fallback (its 10 s wait for a picture overlaps the stall below).
    udpBlocked = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [...chromiumArgs, '--webrtc-ip-handling-policy=disable_non_proxied_udp'],
    });
    const blockedPage = await udpBlocked.newPage({ baseURL: new URL(page.url()).origin });
    const blockedHlsLoaded = blockedPage.waitForRequest((sent) => HLS_JS.test(new URL(sent.url()).pathname), {
      timeout: 30_000,
    });
    const whepTried = blockedPage.waitForRequest((sent) => sent.method() === 'POST' && /\/whep\//.test(sent.url()));
    await blockedPage.goto(`/play/${output.id}`);

    // A stall: the browser's own throttling (DevTools' network conditions) starves the HLS player, which waits,
    // then plays on once the network is back. Leaving the page sends the stall.
    const stallsBefore = (await sessions()).find((each) => each.id === hlsSessionId)?.rebufferCount ?? 0;
    await noWebRtc.evaluate(() => {
      (document.querySelector('video') as HTMLVideoElement).addEventListener('waiting', () => {
        (window as { stalled?: boolean }).stalled = true;
      });
    });
    const cdp = await noWebRtc.context().newCDPSession(noWebRtc);
    await cdp.send('Network.enable');
    const throttle = (downloadThroughput: number) =>
      cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: downloadThroughput < 0 ? 0 : 500,
        downloadThroughput,
        uploadThroughput: -1,
      });
    await throttle(2_000);
    await expect
      .poll(() => noWebRtc.evaluate(() => (window as { stalled?: boolean }).stalled === true), { timeout: 20_000 })
      .toBe(true);
    await throttle(-1);
    const stalledAt = await timeOf(fallback);
    await expect.poll(() => timeOf(fallback), { timeout: 20_000 }).toBeGreaterThan(stalledAt);
    await noWebRtc.goto('about:blank');
    await expect
      .poll(async () => (await sessions()).find((each) => each.id === hlsSessionId)?.rebufferCount, {
        timeout: 10_000,
      })
      .toBeGreaterThan(stallsBefore);
    expect((await analytics()).rebufferRatio).toBeGreaterThan(0);

    await whepTried;
    await blockedHlsLoaded;
    await expect.poll(() => timeOf(blockedPage.getByLabel('Live stream')), { timeout: 30_000 }).toBeGreaterThan(0);
    await udpBlocked.close();

    // The encoder drops (the stream goes Idle) and comes back: the WHEP page notices the lost connection by
    // itself and plays the new push.
    push.stop();
    await expect.poll(streamStatus, { timeout: 20_000 }).toBe('Idle');
    push = pushTestPattern(uri, 'flv', 60);
    await expect(page.getByRole('status')).toHaveText(/./, { timeout: 20_000 });
    await expect(page.getByRole('status')).toBeHidden({ timeout: 30_000 });
    const before = await framesOf(video);
    await expect.poll(() => framesOf(video), { timeout: 30_000 }).toBeGreaterThan(before + 10);
  } finally {
    push.stop();
    await noWebRtc.close();
    await udpBlocked?.close();
  }
});
