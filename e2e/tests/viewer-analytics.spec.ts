import { expect, test } from '@playwright/test';
import { analyticsRoutes, BEACON_MAX_BYTES, playRoutes } from '@streamcloud/contract';
import { api } from '../support/api';
import { accountWithStreamOnLocalNode, pushTestPattern, useLocalMediaNode } from '../support/media';
import { apiCreateOutput } from '../support/streams';

// The viewer beacon (issue 37) end to end: the embeddable player playing a live WebRTC output reports its
// session, which the stream's analytics show within 10 s; a forged and an oversized beacon are refused and
// change nothing.
test.describe.configure({ timeout: 120_000 });

useLocalMediaNode();

test("the embed's beacons reach the stream's analytics; forged and oversized ones are refused", async ({
  page,
  request,
}) => {
  const { token, stream } = await accountWithStreamOnLocalNode(request, 'Analytics');
  const owner = api(request, token);
  const output = await apiCreateOutput(request, token, stream.id, 'WebRTC');
  const push = pushTestPattern((stream.connection as { uri: string }).uri, 'flv', 90);
  const window = () => ({
    from: new Date(Date.now() - 3600_000).toISOString(),
    to: new Date(Date.now() + 60_000).toISOString(),
  });
  const analytics = () => owner.call(analyticsRoutes.stream, { params: { id: stream.id }, query: window() });
  try {
    await page.goto(`/play/${output.id}`);
    const video = page.getByLabel('Live stream');
    await expect
      .poll(() => video.evaluate((element: HTMLVideoElement) => element.getVideoPlaybackQuality().totalVideoFrames), {
        timeout: 45_000,
      })
      .toBeGreaterThan(0);
    // The first frame's startup event is sent at once: the session is in the analytics within 10 s.
    await expect.poll(async () => (await analytics()).viewers, { timeout: 10_000 }).toBe(1);
    const seen = await analytics();
    expect(seen.ttffMs.median).toBeGreaterThan(0);
    expect(seen.breakdowns.browser.map((group) => group.value)).toEqual(['Chrome']);
    expect(seen.breakdowns.country.map((group) => group.value)).toEqual(['unknown']);
    const [session] = (await owner.call(analyticsRoutes.sessions, { params: { id: stream.id }, query: window() }))
      .sessions;
    expect(session).toMatchObject({ outputId: output.id, player: 'embed', device: 'desktop' });
    const eventsBefore = (await owner.call(analyticsRoutes.session, { params: { id: session?.id ?? '' } })).timeline
      .length;

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
    expect((await analytics()).viewers).toBe(1);
  } finally {
    push.stop();
  }
});
