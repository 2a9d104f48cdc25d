import { expect, type Page, test } from '@playwright/test';
import { createAccount, loginViaUi } from '../support/accounts';
import { createStreamInConsole, useLocalMediaNode } from '../support/media';
import { addViewerInConsole } from '../support/streams';

// WebRTC in a real browser against a real media node: Chromium publishes over WHIP and plays over WHEP,
// from the console's page, so every signalling call crosses origins (the node is on another port).
test.describe.configure({ timeout: 180_000 });

const node = useLocalMediaNode();

declare global {
  interface Window {
    peer?: RTCPeerConnection;
    session?: string;
  }
}

/**
 * In the page: offers `peer` to a WHIP or WHEP URL (non-trickle: the offer carries every candidate), applies
 * the answer, and keeps the session's URL; answers the refusal's status and text instead when not 201.
 */
async function signal(page: Page, url: string, token?: string): Promise<string | null> {
  return page.evaluate(
    async ([url, token]) => {
      const pc = window.peer as RTCPeerConnection;
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise<void>((resolve) => {
        if (pc.iceGatheringState === 'complete') resolve();
        pc.addEventListener('icegatheringstatechange', () => pc.iceGatheringState === 'complete' && resolve());
      });
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/sdp', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: pc.localDescription?.sdp,
      });
      if (response.status !== 201) return `${response.status} ${await response.text()}`;
      window.session = new URL(response.headers.get('location') ?? '', url).href;
      await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
      return null;
    },
    [url, token] as const,
  );
}

/** A moving canvas (320x240) with a tone, sent only. */
async function preparePublisher(page: Page): Promise<void> {
  await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 240;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    let frame = 0;
    setInterval(() => {
      frame++;
      context.fillStyle = `hsl(${(frame * 7) % 360} 80% 50%)`;
      context.fillRect(0, 0, 320, 240);
      context.fillStyle = '#fff';
      context.fillText(String(frame), 10, 20);
    }, 33);
    const media = canvas.captureStream(30);
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const destination = audio.createMediaStreamDestination();
    tone.connect(destination);
    tone.start();
    for (const track of destination.stream.getAudioTracks()) media.addTrack(track);
    const pc = new RTCPeerConnection();
    for (const track of media.getTracks()) pc.addTransceiver(track, { direction: 'sendonly', streams: [media] });
    window.peer = pc;
  });
}

/** A muted <video> receiving video and audio. */
async function preparePlayer(page: Page): Promise<void> {
  await page.evaluate(() => {
    const video = document.createElement('video');
    video.setAttribute('aria-label', 'WHEP player');
    video.muted = true;
    video.autoplay = true;
    document.body.append(video);
    const pc = new RTCPeerConnection();
    pc.addTransceiver('video', { direction: 'recvonly' });
    pc.addTransceiver('audio', { direction: 'recvonly' });
    const received = new MediaStream();
    pc.addEventListener('track', (event) => {
      received.addTrack(event.track);
      video.srcObject = received;
    });
    window.peer = pc;
  });
}

/** What the page's peer connection decoded so far (inbound video), from its own stats. */
const framesDecoded = (page: Page) =>
  page.evaluate(async () => {
    const stats = await (window.peer as RTCPeerConnection).getStats();
    let frames = 0;
    stats.forEach((report) => {
      if (report.type === 'inbound-rtp' && report.kind === 'video') frames += report.framesDecoded ?? 0;
    });
    return frames;
  });

test('Chromium publishes over WHIP to the shown URL and another page plays it over WHEP', async ({
  browser,
  baseURL,
  page,
  request,
}) => {
  const account = await createAccount(request);
  await loginViaUi(page, account);

  const { endpoint: whip } = await createStreamInConsole(page, { caption: 'Browser camera', format: 'WebRTC' });
  expect(whip).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${node().port}/whip/in%2B[0-9a-f-]{36}$`));

  // A WebRTC viewer made in the console while the stream is Idle.
  const viewers = await addViewerInConsole(page, 'WebRTC');
  const whepUrl = viewers.getByText(new RegExp(`^http://127\\.0\\.0\\.1:${node().port}/whep/out%2B[0-9a-f-]{36}$`));
  await expect(whepUrl).toBeVisible();
  const whep = (await whepUrl.textContent()) ?? '';

  // The publisher and the player stand for a customer's web pages: on an origin other than the node's,
  // without the console's own Content-Security-Policy (which keeps the console itself to its API).
  const site = await browser.newContext({ baseURL, bypassCSP: true });
  const player = await site.newPage();
  await player.goto('/');
  await preparePlayer(player);
  // Not live yet: the page can read why.
  expect(await signal(player, whep)).toMatch(/^404 .*not live/);

  const publisher = await site.newPage();
  await publisher.goto('/');
  await preparePublisher(publisher);
  expect(await signal(publisher, whip)).toBeNull();
  await expect(page.getByTestId('stream-status')).toHaveText('Ingestion', { timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Messages' })).toContainText(/Push started over WebRTC/);

  await player.reload();
  await preparePlayer(player);
  expect(await signal(player, whep)).toBeNull();
  await expect
    .poll(() => player.getByLabel('WHEP player').evaluate((video: HTMLVideoElement) => video.videoWidth), {
      timeout: 20_000,
    })
    .toBe(320);
  const decoded = await framesDecoded(player);
  await expect.poll(() => framesDecoded(player), { timeout: 10_000 }).toBeGreaterThan(decoded + 30);
  await expect(viewers.getByRole('listitem')).toContainText('1 session', { timeout: 15_000 });
  // The stream's metrics panel charts the push's packets and round-trip time (measured by the node).
  const metrics = page.getByRole('region', { name: 'Stream metrics' });
  await metrics.getByRole('checkbox', { name: 'Packets sent' }).check();
  await metrics.getByRole('checkbox', { name: 'RTT' }).check();
  await expect(metrics.getByRole('table', { name: 'Packets sent legend' })).toBeVisible({ timeout: 30_000 });
  await expect(metrics.getByRole('table', { name: 'RTT legend' })).toBeVisible({ timeout: 15_000 });

  // The publisher leaves (DELETE on its session, another cross-origin call): a deliberate end, Idle without
  // the reconnect grace.
  const left = await publisher.evaluate(async () => (await fetch(window.session ?? '', { method: 'DELETE' })).status);
  expect(left).toBe(200);
  await expect(page.getByTestId('stream-status')).toHaveText('Idle', { timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Messages' })).toContainText('Push stopped by the publisher');
  await site.close();
});
