import type { PreviewCredential } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { processRunning, pushTestPattern, waitFor } from './harness.js';
import { STANDARD_HLS, streamsOf, uriOf, useMediaNode } from './streams.js';

/** The console's preview player: admitted with a preview credential, reported apart from viewers, never billed. */
const world = useMediaNode('media-1', { REPORT_INTERVAL_MS: '500' });
const { api, createStream, createOutput, outputs, status, usage, metric } = streamsOf(world);

/** Opens an HLS output (one session: the redirect once), then reads its playlist and first fragment; answers the status met. */
async function playHls(uri: string): Promise<number> {
  const first = await fetch(uri, { redirect: 'manual' });
  if (first.status !== 302) return first.status;
  const playlistUrl = new URL(first.headers.get('location') ?? '', uri);
  const playlist = await waitFor(
    () => fetch(playlistUrl),
    (r) => r.status !== 404,
    10_000,
    'the playlist',
  );
  if (playlist.status !== 200) return playlist.status;
  const fragment = (await playlist.text()).split('\n').find((line) => line && !line.startsWith('#'));
  if (fragment) await (await fetch(new URL(fragment, playlistUrl))).arrayBuffer();
  return playlist.status;
}

describe('preview sessions', () => {
  it("play a Private stream's HLS output with a preview credential, as a preview: not a viewer, not billed", async () => {
    const stream = await createStream({ format: 'RTMP', access: 'Private' });
    const other = await createStream({ format: 'RTMP', access: 'Private' });
    const output = await createOutput(stream.id, 'HLS', STANDARD_HLS);
    const credential = async (id: string) => (await api<PreviewCredential>('POST', `/inputs/${id}/preview`)).body.token;
    const mine = await credential(stream.id);
    const push = pushTestPattern(`${uriOf(stream)}?token=${stream.accessToken}`, 'flv', 30);
    await status(stream.id, 'Ingestion');
    const uri = output.connection?.uri ?? '';
    const withToken = (token: string) => `${uri}?${new URLSearchParams({ token })}`;
    // Another stream's credential, an altered one and none are refused; the stream's own plays.
    expect(await playHls(withToken(await credential(other.id)))).toBe(403);
    expect(await playHls(withToken(`${mine.slice(0, -2)}xx`))).toBe(403);
    expect(await playHls(uri)).toBe(403);
    expect(await playHls(withToken(mine))).toBe(200);
    const listed = await waitFor(
      () => outputs(stream.id),
      (found) => found[0]?.previews === 1,
      8000,
      'the preview session in the control plane',
    );
    expect(listed[0]?.sessions).toEqual([]);
    // Metrics reports go by while the preview plays (its fragments fetched since): it is never a viewer.
    const viewers = await waitFor(
      () => metric(stream.id, 'ConcurrentViewers'),
      (values) => values.length >= 2,
      15_000,
      'metrics while the preview plays',
    );
    expect(Math.max(...viewers)).toBe(0);
    expect(Math.max(0, ...(await metric(stream.id, 'OutgoingBitrate')))).toBe(0);
    push.stop();
    await push.exited;
    await status(stream.id, 'Idle', 15_000);
    const billed = await waitFor(
      () => usage(stream.id),
      (found) => found.upload > 0,
      8000,
      'the push billed',
    );
    expect(billed.outgoing).toBe(0);
  });

  it("keeps a live stream's WebRTC feed warm while it has a WebRTC output; a preview credential alone warms it up", async () => {
    const stream = await createStream({ format: 'RTMP' });
    const push = pushTestPattern(uriOf(stream), 'flv', 30);
    // The stream's WHEP feed (its ffmpeg sends RTP): H.264 as it is or VP8, whichever the push allows.
    const feedRunning = async () =>
      processRunning((command) => command.includes('-f rtp') && command.includes(stream.id));
    const feed = (running: boolean, what: string) => waitFor(feedRunning, (found) => found === running, 8000, what);
    try {
      await status(stream.id, 'Ingestion');
      // No WebRTC output: no feed. One added while live starts it, no viewer needed; deleted, it stops.
      expect(await feedRunning()).toBe(false);
      const output = await createOutput(stream.id, 'WebRTC');
      await feed(true, 'the feed to start for the new WebRTC output');
      expect((await api('DELETE', `/outputs/${output.id}`)).status).toBe(204);
      await feed(false, 'the feed to stop with the last WebRTC output');
      const again = await createOutput(stream.id, 'WebRTC');
      await feed(true, 'the feed to start for the WebRTC output again');
      // A viewer (this Public output needs no token) may play, but not warm up a feed no session counts.
      const warm = `${again.connection?.signallingUri}/warm`;
      const refused = await fetch(warm, { method: 'POST' });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ message: 'only a preview credential warms up the WebRTC feed' });
      const { token } = (await api<PreviewCredential>('POST', `/inputs/${stream.id}/preview`)).body;
      const warmed = await fetch(warm, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      expect(warmed.status).toBe(204);
      expect(warmed.headers.get('access-control-allow-origin')).toBe('*');
      // The push ends: so does the feed (its idle time, WEBRTC_WARM_IDLE_MS, is far off).
      push.stop();
      await feed(false, 'the feed to stop with the push');
    } finally {
      push.stop();
      await push.exited;
    }
  });
});
