import { expect, type Locator, type Page, test } from '@playwright/test';
import { apiLogin, createAccount, loginViaUi } from '../support/accounts';
import { createStreamInConsole, pushTestPattern, useLocalMediaNode } from '../support/media';
import { addViewerInConsole } from '../support/streams';

// The dashboard's Preview card against a real media node: an RTMP push from ffmpeg plays over WHEP and over
// HLS with the preview credential, is counted as a preview (not a viewer) and is never billed.
test.describe.configure({ timeout: 180_000 });

// The encoder reconnects within the grace (below): 5 s, as ffmpeg's restart took over the default 1 s in a loaded
// run, the stream's session ended (EXT-X-ENDLIST) and the player stopped.
useLocalMediaNode({ reconnectGraceMs: 5000 });

/** Video frames the preview element decoded so far. */
const framesOf = (video: Locator) =>
  video.evaluate((element: HTMLVideoElement) => element.getVideoPlaybackQuality().totalVideoFrames);

async function outputItem(page: Page, format: string): Promise<Locator> {
  const viewers = page.getByRole('region', { name: 'Viewers' });
  return viewers.getByRole('listitem').filter({ has: page.getByText(format, { exact: true }) });
}

test('an RTMP push previews over WHEP and HLS as a preview session, not a billed viewer', async ({ page, request }) => {
  const account = await createAccount(request);
  const token = await apiLogin(request, { username: account.username, password: account.password });
  await loginViaUi(page, account);
  const { endpoint: pushUrl, streamId } = await createStreamInConsole(page, { caption: 'Preview', format: 'RTMP' });
  let push = pushTestPattern(pushUrl, 'flv', 120);
  try {
    await expect(page.getByTestId('stream-status')).toHaveText('Ingestion', { timeout: 20_000 });
    const preview = page.getByRole('region', { name: 'Preview' });
    await expect(preview).toContainText('Add a WebRTC or HLS viewer to preview this stream.');
    // The HLS viewer is Low latency (LL-HLS, packaged by the node): hls.js plays it in its low-latency mode.
    await addViewerInConsole(page, 'HLS', { hlsLatency: 'Low' });
    await addViewerInConsole(page, 'WebRTC');

    // WebRTC first (the lowest latency): frames decode, and getStats counts them.
    const output = preview.getByRole('combobox', { name: 'Output' });
    await expect(output.getByRole('option', { selected: true })).toHaveText(/^WebRTC \(WHEP\)/, { timeout: 15_000 });
    const video = preview.getByLabel('Stream preview');
    await expect.poll(() => framesOf(video), { timeout: 30_000 }).toBeGreaterThan(10);
    await preview.getByRole('button', { name: 'Show stats' }).click();
    const stats = preview.getByLabel('Playback statistics');
    await expect(stats).toContainText(/Frames decoded\s*[1-9]\d*/, { timeout: 10_000 });
    await expect(stats).toContainText(/Resolution\s*320×\d+/);
    await expect(stats).toContainText(/Bitrate\s*[1-9]\d* kb\/s/);
    // Chromium decodes the stream's H.264 as the node sends it, not re-encoded (docs/decisions.md, "WebRTC without re-encoding").
    await expect(page.getByRole('region', { name: 'Messages' })).toContainText(
      'WebRTC viewers get the H.264 video as it is (no re-encoding)',
    );
    await expect(await outputItem(page, 'WebRTC')).toContainText('1 preview', { timeout: 15_000 });
    await expect(await outputItem(page, 'WebRTC')).toContainText('0 sessions');

    // HLS (hls.js, loaded now): the picture plays on.
    await output.selectOption({ label: (await output.getByRole('option', { name: /^HLS/ }).textContent()) ?? '' });
    await expect(stats).toContainText(/Behind live edge\s*\d/, { timeout: 30_000 });
    // Glass to glass: the playing fragment's EXT-X-PROGRAM-DATE-TIME (the node's clock) to now.
    await expect(stats).toContainText(/Glass to glass\s*\d+\.\d\d s/);
    // A passthrough output has no master playlist (no level bitrate): measured from the fragments loaded.
    await expect(stats).toContainText(/Bitrate\s*[1-9]\d* kb\/s/);
    const played = await video.evaluate((element: HTMLVideoElement) => element.currentTime);
    await expect.poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime)).toBeGreaterThan(played);
    await expect(await outputItem(page, 'HLS')).toContainText('1 preview', { timeout: 15_000 });
    await expect(await outputItem(page, 'HLS')).toContainText('0 sessions');

    // The encoder reconnects within the grace: the LL-HLS playlist goes on (a discontinuity), and so does the picture.
    push.stop();
    await push.exited;
    // What the player held when the push dropped: playing past its end needs media of the new push.
    const heldUntil = await video.evaluate((element: HTMLVideoElement) =>
      element.buffered.length > 0 ? element.buffered.end(element.buffered.length - 1) : element.currentTime,
    );
    push = pushTestPattern(pushUrl, 'flv', 120);
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.currentTime), { timeout: 30_000 })
      .toBeGreaterThan(heldUntil + 1);
  } finally {
    push.stop();
  }
  await expect(page.getByTestId('stream-status')).toHaveText('Idle', { timeout: 20_000 });

  // Statistics after: the push is billed, the previews are not (no outgoing bytes, never a viewer).
  const from = new Date(Date.now() - 3600_000).toISOString();
  const to = new Date(Date.now() + 3600_000).toISOString();
  const headers = { authorization: `Bearer ${token}` };
  const usage = await (
    await request.get(`/api/v1/statistics/stream/${streamId}/from/${from}/to/${to}`, { headers })
  ).json();
  const streams = (usage.streams ?? []) as { incoming: { upload: number }[]; outgoing: { download: number }[] }[];
  expect(streams.flatMap((s) => s.incoming).reduce((sum, session) => sum + session.upload, 0)).toBeGreaterThan(0);
  expect(streams.flatMap((s) => s.outgoing).reduce((sum, node) => sum + node.download, 0)).toBe(0);
  const viewers = await (
    await request.get(`/api/v1/statistics/stream/${streamId}/from/${from}/to/${to}?metrics=ConcurrentViewers`, {
      headers,
    })
  ).json();
  const counted = (viewers.result as { values: [number, string][] }[]).flatMap((series) =>
    series.values.map(([, value]) => Number(value)),
  );
  expect(Math.max(0, ...counted)).toBe(0);
});

test('an audio-only push previews over WebRTC: its audio comes, no picture, and nothing says it failed', async ({
  page,
  request,
}) => {
  const account = await createAccount(request);
  await loginViaUi(page, account);
  const { endpoint: pushUrl } = await createStreamInConsole(page, { caption: 'Radio', format: 'RTMP' });
  const push = pushTestPattern(pushUrl, 'flv', 120, { tracks: 'audio' });
  try {
    await expect(page.getByTestId('stream-status')).toHaveText('Ingestion', { timeout: 20_000 });
    await addViewerInConsole(page, 'WebRTC');
    const preview = page.getByRole('region', { name: 'Preview' });
    const output = preview.getByRole('combobox', { name: 'Output' });
    await expect(output.getByRole('option', { selected: true })).toHaveText(/^WebRTC \(WHEP\)/, { timeout: 15_000 });
    await expect(await outputItem(page, 'WebRTC')).toContainText('1 preview', { timeout: 20_000 });
    // A remote track is muted until its packets arrive: the audio's come, the (empty) video's never do.
    const video = preview.getByLabel('Stream preview');
    const unmuted = (kind: 'audio' | 'video') =>
      video.evaluate(
        (element: HTMLVideoElement, which) =>
          ((element.srcObject as MediaStream | null)?.getTracks() ?? []).some(
            (track) => track.kind === which && !track.muted,
          ),
        kind,
      );
    await expect.poll(() => unmuted('audio'), { timeout: 20_000 }).toBe(true);
    expect(await unmuted('video')).toBe(false);
    await expect(preview.getByRole('alert')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Messages' })).not.toContainText('WebRTC playback cannot start');
  } finally {
    push.stop();
  }
});
