import type { RotatedAccessToken, StreamOutput } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { pushTestPattern, waitFor } from './harness.js';
import { STANDARD_HLS, streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * Token rotation (issue 34) on a real node: after a rotation both the old and the new token are taken until the
 * window ends (by the node's clock, with no new read of its streams), then the new one only; what was admitted
 * before goes on (docs/decisions.md, "Token rotation").
 */
const world = useMediaNode('media-1', { REPORT_INTERVAL_MS: '500' });
const { api, createStream, createOutput, messages, status } = streamsOf(world);

/** A window long enough for the checks below on a loaded machine, short enough to watch it end. */
const OVERLAP_MINUTES = 0.25;

const hlsUrl = (output: StreamOutput, token: string) => `${output.connection?.uri}?${new URLSearchParams({ token })}`;

/** A new HLS session with `token`: its playlist's status (the session's URL once the node let it in). */
async function openHls(uri: string): Promise<{ status: number; url: URL | null }> {
  const first = await fetch(uri, { redirect: 'manual' });
  await first.arrayBuffer();
  if (first.status !== 302) return { status: first.status, url: null };
  const url = new URL(first.headers.get('location') ?? '', uri);
  const playlist = await fetch(url, { redirect: 'manual' });
  await playlist.arrayBuffer();
  return { status: playlist.status, url };
}

const playlistStatus = async (url: URL) => {
  const response = await fetch(url, { redirect: 'manual' });
  await response.arrayBuffer();
  return response.status;
};

/** Another RTMP push to the stream with `token` while one is live; answers the node's refusal of it. */
async function secondPush(uri: string, token: string, stream: string): Promise<string> {
  const count = (texts: string[]) => texts.filter((text) => text.startsWith('Push from 127.0.0.1 refused')).length;
  const before = count(await messages(stream));
  const push = pushTestPattern(`${uri}?token=${token}`, 'flv', 10, { size: '160x120', rate: 10 });
  try {
    const texts = await waitFor(
      () => messages(stream),
      (texts) => count(texts) > before,
      10_000,
      'the refusal of a second push',
    );
    return texts.find((text) => text.startsWith('Push from 127.0.0.1 refused')) ?? '';
  } finally {
    push.stop();
    await push.exited;
  }
}

const BUSY = 'Push from 127.0.0.1 refused: the stream is already being pushed';
const WRONG = 'Push from 127.0.0.1 refused: wrong access token';

describe('token rotation', () => {
  it('takes the old and the new ingest and viewer tokens through the window, then only the new ones', async () => {
    const stream = await createStream({ format: 'RTMP', access: 'Private' });
    const output = await createOutput(stream.id, 'HLS', STANDARD_HLS);
    const oldIngest = stream.accessToken ?? '';
    const oldViewer = output.viewer.accessToken ?? '';
    const push = pushTestPattern(`${uriOf(stream)}?token=${oldIngest}`, 'flv', 120, { size: '160x120', rate: 10 });
    try {
      await status(stream.id, 'Ingestion', 15_000);
      await waitFor(
        () => openHls(hlsUrl(output, oldViewer)),
        (hls) => hls.status === 200,
        15_000,
        'HLS playing',
      );

      const rotate = async (path: string) => {
        const answer = await api<RotatedAccessToken>('POST', path, { overlapMinutes: OVERLAP_MINUTES });
        expect(answer.status).toBe(200);
        return answer.body;
      };
      const ingest = await rotate(`/inputs/${stream.id}/access-token/rotate`);
      const viewer = await rotate(`/outputs/${output.id}/access-token/rotate`);
      const windowEnd = Date.parse(viewer.previousValidUntil ?? '');

      // The node was told at once: the new viewer token plays within 2 s; the old one still does.
      await waitFor(
        () => openHls(hlsUrl(output, viewer.accessToken)),
        (hls) => hls.status === 200,
        2000,
        'the new viewer token playing',
      );
      const running = await openHls(hlsUrl(output, oldViewer));
      expect(running.status).toBe(200);
      // A second push is refused for being second, not for its token: both ingest tokens are taken.
      expect(await secondPush(uriOf(stream), ingest.accessToken, stream.id)).toBe(BUSY);
      expect(await secondPush(uriOf(stream), oldIngest, stream.id)).toBe(BUSY);
      expect(Date.now()).toBeLessThan(windowEnd);

      // The window ends on the node's clock: a new session with the old viewer token is refused from then on,
      // while the session opened before plays on (its player asking for the playlist as it plays), past the
      // node's next read of its streams (every 1.5 s): the old token stays on the node after the window for it.
      const runningAnswers: number[] = [];
      const playOn = async () => {
        runningAnswers.push(await playlistStatus(running.url as URL));
        return Date.now();
      };
      await waitFor(
        async () => {
          await playOn();
          return (await openHls(hlsUrl(output, oldViewer))).status;
        },
        (code) => code === 403,
        OVERLAP_MINUTES * 60_000 + 10_000,
        'the old viewer token refused',
      );
      const refusedAt = Date.now();
      expect(refusedAt).toBeGreaterThanOrEqual(windowEnd - 1000);
      await waitFor(playOn, (now) => now > refusedAt + 3000, 10_000, 'the running session playing 3 s past the window');
      expect(runningAnswers.filter((status) => status !== 200)).toEqual([]);
      expect((await openHls(hlsUrl(output, viewer.accessToken))).status).toBe(200);
      // The push admitted with the old ingest token is not cut; a new push with it is refused, with the new one taken.
      expect((await api<{ status: string }>('GET', `/inputs/${stream.id}`)).body.status).toBe('Ingestion');
      expect(await secondPush(uriOf(stream), oldIngest, stream.id)).toBe(WRONG);
      expect(await secondPush(uriOf(stream), ingest.accessToken, stream.id)).toBe(BUSY);
    } finally {
      push.stop();
      await push.exited;
    }
  }, 120_000);
});
