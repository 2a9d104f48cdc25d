import { expect, test } from '@playwright/test';
import { analyticsRoutes, streamRoutes } from '@streamcloud/contract';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import { apiLogin, createAccount } from '../support/accounts';
import { api } from '../support/api';
import { STREAMER_IP, useLocalMediaNode } from '../support/media';
import { apiCreateInput } from '../support/streams';

// The studio and the preview in Firefox (Debian's firefox-esr, which `npm test` installs): Playwright's
// WebDriver BiDi client needs commands this Firefox lacks and its own Firefox build cannot be downloaded
// here, so puppeteer-core drives it over WebDriver BiDi (docs/decisions.md, "Firefox"). Firefox's fake
// camera and microphone, granted without a prompt, go live from the studio; the dashboard's preview plays, and so
// does the embeddable player (issue 37): over WHEP, and over the stream's HLS output in a page without WebRTC; both
// embeds' beacons reach the stream's analytics within 10 s.
test.describe.configure({ timeout: 120_000 });

const FIREFOX = '/usr/bin/firefox-esr';

useLocalMediaNode();

let browser: Browser | undefined;
test.afterAll(async () => {
  await browser?.close();
});

/** An element by its role and accessible name (puppeteer's ARIA query). */
const byRole = (page: Page, role: string, name: string) => page.locator(`::-p-aria([name="${name}"][role="${role}"])`);

/** Types into the field labelled `label` (found by its <label>: Firefox gives a password field no role). */
async function fill(page: Page, label: string, text: string): Promise<void> {
  const control = await page.waitForFunction(
    (name: string) => Array.from(document.querySelectorAll('label')).find((l) => l.textContent === name)?.control,
    {},
    label,
  );
  await (control as ElementHandle<HTMLElement>).type(text);
}

/** Counts the frames `selector`'s video presents from now on (Firefox's getVideoPlaybackQuality counts none for a
 * MediaStream, so requestVideoFrameCallback counts them); answers a wait for more than `count`. */
async function framesPresented(page: Page, selector: string, count: number): Promise<number> {
  await page.evaluate((where: string) => {
    const video = document.querySelector(where) as HTMLVideoElement;
    const counter = window as unknown as { presented: number };
    counter.presented = 0;
    const next = () =>
      video.requestVideoFrameCallback(() => {
        if (video.srcObject) counter.presented++;
        next();
      });
    next();
  }, selector);
  const presented = await page
    .waitForFunction(
      (over: number) => {
        const { presented } = window as unknown as { presented: number };
        return presented > over ? presented : 0;
      },
      { timeout: 30_000 },
      count,
    )
    .catch(async (error: unknown) => {
      const status = await page.$$eval('[role="status"]', (found) => found.map((e) => e.textContent));
      throw new Error(`${selector} presented no frames; the page says ${JSON.stringify(status)}`, { cause: error });
    });
  return (await presented.jsonValue()) as number;
}

/** Waits until the page shows `text` in the element `selector` matches. */
async function waitForText(page: Page, selector: string, text: string, timeout = 20_000): Promise<void> {
  await page
    .waitForFunction(
      (wanted: string, where: string) =>
        Array.from(document.querySelectorAll(where)).some((e) => e.textContent === wanted),
      { timeout },
      text,
      selector,
    )
    .catch(async (error: unknown) => {
      const shown = await page.$$eval(selector, (found) => found.map((e) => e.textContent));
      throw new Error(`"${text}" never showed in ${selector}; it shows ${JSON.stringify(shown)}`, { cause: error });
    });
}

test('a WebRTC stream goes live from the studio in Firefox, and its preview plays there', async ({
  request,
  baseURL,
}) => {
  const account = await createAccount(request);
  const token = await apiLogin(request, { username: account.username, password: account.password });
  const stream = await apiCreateInput(request, token, {
    format: 'WebRTC',
    caption: 'Firefox studio',
    streamer: { ipAddress: STREAMER_IP },
  });
  const owner = api(request, token);
  const output = await owner.call(streamRoutes.createOutput, { body: { streamId: stream.id, format: 'WebRTC' } });
  // The embed's fallback where the browser has no WebRTC.
  await owner.call(streamRoutes.createOutput, { body: { streamId: stream.id, format: 'HLS', hlsLatency: 'Standard' } });

  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: { 'media.navigator.streams.fake': true, 'media.navigator.permission.disabled': true },
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 800 });
  await page.goto(`${baseURL}/#/login`);
  // The app has replaced the pre-rendered sign-in copy, whose Login button cannot sign in yet: under load its
  // code arrives seconds after the first paint, and a click on the copy was lost (seen once in a full run).
  await page.waitForFunction(() => !document.querySelector('.prerendered'), { timeout: 30_000 });
  await fill(page, 'Username', account.username);
  await fill(page, 'Password', account.password);
  await byRole(page, 'button', 'Login').click();
  await byRole(page, 'button', account.username).wait();

  await page.goto(`${baseURL}/#/streams/view/${stream.id}`);
  await byRole(page, 'button', 'Go live').click();
  const studio = '[role="dialog"]';
  await page.waitForFunction(
    () => (document.querySelector('video[aria-label="Local preview"]') as HTMLVideoElement | null)?.videoWidth,
    { timeout: 15_000 },
  );
  await page.locator(`${studio} ::-p-aria([name="Go live"][role="button"])`).click();
  await waitForText(page, '[role="status"][aria-label="Publishing status"]', 'Studio: Live');
  await waitForText(page, '[data-testid="stream-status"]', 'Ingestion');

  // The dashboard's Preview card plays the stream's WebRTC output (WHEP) in Firefox too: frames are presented
  // (Firefox's getVideoPlaybackQuality counts none for a MediaStream, so requestVideoFrameCallback counts them).
  await page.waitForSelector('video[aria-label="Stream preview"]', { timeout: 20_000 });
  expect(await framesPresented(page, 'video[aria-label="Stream preview"]', 10)).toBeGreaterThan(10);
  expect(
    await page.$eval('video[aria-label="Stream preview"]', (video) => (video as HTMLVideoElement).videoWidth),
  ).toBeGreaterThan(0);
  expect(await page.$$eval('[role="alert"]', (alerts) => alerts.map((alert) => alert.textContent))).toEqual([]);

  // The embeddable player of the WebRTC output plays over WHEP; in a page without WebRTC it plays the stream's HLS
  // output. Both open at once; each one's session is in the analytics within 10 s of its picture.
  const [embed, noWebRtc] = [await browser.newPage(), await browser.newPage()];
  await noWebRtc.evaluateOnNewDocument(() => {
    delete (window as { RTCPeerConnection?: unknown }).RTCPeerConnection;
  });
  await Promise.all([embed.goto(`${baseURL}/play/${output.id}`), noWebRtc.goto(`${baseURL}/play/${output.id}`)]);
  const live = 'video[aria-label="Live stream"]';
  // A tab in the background presents no frames: each page is brought to the front for its check.
  await embed.bringToFront();
  await embed.waitForSelector(live);
  expect(await framesPresented(embed, live, 10)).toBeGreaterThan(10);
  await noWebRtc.bringToFront();
  const playedAt = await noWebRtc.waitForFunction(
    (where: string) => (document.querySelector(where) as HTMLVideoElement | null)?.currentTime || 0,
    { timeout: 30_000 },
    live,
  );
  const played = (await playedAt.jsonValue()) as number;
  await noWebRtc.waitForFunction(
    (where: string, after: number) => (document.querySelector(where) as HTMLVideoElement).currentTime > after,
    { timeout: 15_000 },
    live,
    played,
  );
  const window = () => ({
    from: new Date(Date.now() - 3600_000).toISOString(),
    to: new Date(Date.now() + 60_000).toISOString(),
  });
  await expect
    .poll(
      async () => (await owner.call(analyticsRoutes.stream, { params: { id: stream.id }, query: window() })).viewers,
      {
        timeout: 10_000,
      },
    )
    .toBe(2);
  const seen = await owner.call(analyticsRoutes.stream, { params: { id: stream.id }, query: window() });
  expect(seen.breakdowns.browser.map((group) => group.value)).toEqual(['Firefox']);
  await Promise.all([embed.close(), noWebRtc.close()]);

  await page.locator(`${studio} ::-p-aria([name="Stop"][role="button"])`).click();
  await waitForText(page, '[role="status"][aria-label="Publishing status"]', 'Studio: Off air');
  await waitForText(page, '[data-testid="stream-status"]', 'Idle');
});
