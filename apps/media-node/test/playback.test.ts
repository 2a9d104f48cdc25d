import { describe, expect, it } from 'vitest';
import { ffmpeg, type Push, playRtmp, pushTestPattern, sleep, waitFor } from './harness.js';
import { STANDARD_HLS, streamsOf, uriOf, useMediaNode } from './streams.js';

/** Viewers of a live stream: HLS sessions, clearing and deleting outputs. */
// A reconnect grace long enough for the 2 s drop of the HLS test.
const world = useMediaNode('media-1', { RECONNECT_GRACE_MS: '4000' });
const { api, createStream, createOutput, getStream, outputs, status, snapshot } = streamsOf(world);

describe('HLS', () => {
  it('answers the playlist the moment the stream is live, disconnects the viewers of an output whose sessions are cleared, and ends the playlist at a Stop', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const output = await createOutput(stream.id, 'HLS', STANDARD_HLS);
    const push = pushTestPattern(uriOf(stream), 'flv', 30);
    await status(stream.id, 'Ingestion');
    // A player that opens the stream the moment it is live: the node holds the playlist request until
    // the first fragment exists instead of answering 404 (players give up on a 404).
    const first = await fetch(output.connection?.uri ?? '', { redirect: 'manual' });
    expect(first.status).toBe(302);
    const playlist = new URL(first.headers.get('location') ?? '', output.connection?.uri ?? '').toString();
    const opened = await fetch(playlist);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toMatch(/\.ts\?sid=hls-/);
    await waitFor(
      () => outputs(stream.id),
      (outputs) => (outputs[0]?.sessions.length ?? 0) === 1,
      8000,
      'the session in the control plane',
    );
    expect((await api('DELETE', `/outputs/${output.id}/sessions`)).status).toBe(204);
    const ended = await waitFor(
      () => fetch(playlist),
      (response) => response.status === 410,
      8000,
      'the session to be ended',
    );
    // Refusals carry CORS too: a browser player (the console's preview) can read why it was stopped.
    expect(ended.headers.get('access-control-allow-origin')).toBe('*');
    expect(await ended.json()).toEqual({ message: 'This session was ended' });
    // Stop in the console: a player's playlist ends with EXT-X-ENDLIST at once (no reconnect grace to wait for).
    const again = await fetch(output.connection?.uri ?? '', { redirect: 'manual' });
    const stillPlaying = new URL(again.headers.get('location') ?? '', output.connection?.uri ?? '').toString();
    expect((await fetch(stillPlaying)).status).toBe(200);
    expect((await api('PUT', `/inputs/${stream.id}`, { state: 'Idle' })).status).toBe(200);
    await waitFor(
      async () => (await fetch(stillPlaying)).text(),
      (text) => text.trimEnd().endsWith('#EXT-X-ENDLIST'),
      8000,
      'EXT-X-ENDLIST after the Stop',
    );
    expect(await push.exited).not.toBeNull();
  });
});

describe('HLS through a reconnect', () => {
  it('keeps the playlist through a 2 s drop, continues it after a discontinuity, then ends it with EXT-X-ENDLIST', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const uri = (await createOutput(stream.id, 'HLS', STANDARD_HLS)).connection?.uri ?? '';
    const first = pushTestPattern(uriOf(stream), 'flv', 30);
    const answers: { status: number; text: string }[] = [];
    let polling = true;
    let reader: Push | null = null;
    try {
      await status(stream.id, 'Ingestion');
      const redirect = await waitFor(
        () => fetch(uri, { redirect: 'manual' }),
        (response) => response.status === 302,
        8000,
        'the session redirect',
      );
      const playlist = new URL(redirect.headers.get('location') ?? '', uri).toString();
      const fragmentsOf = (text: string) => text.split('\n').filter((line) => line && !line.startsWith('#'));
      await waitFor(
        async () => (await fetch(playlist)).text(),
        (text) => fragmentsOf(text).length >= 2,
        10_000,
        'two fragments',
      );
      // A player: ffmpeg's HLS reader, and a poll of the playlist twice a second that keeps every answer.
      reader = ffmpeg(['-i', playlist, '-f', 'null', '-']);
      const poll = (async () => {
        while (polling) {
          const response = await fetch(playlist);
          answers.push({ status: response.status, text: await response.text() });
          await sleep(500);
        }
      })();
      first.stop();
      await first.exited;
      // The streamer's network drops for 2 s (the scenario, not a wait for a state).
      await sleep(2000);
      expect(reader.running()).toBe(true);
      const second = pushTestPattern(uriOf(stream), 'flv', 4);
      // The resumed push continues the playlist: a fragment of the first push, a discontinuity, new fragments.
      await waitFor(
        async () => (await fetch(playlist)).text(),
        (text) => /\.ts\?sid=[^\n]+\n#EXT-X-DISCONTINUITY\n/.test(text),
        15_000,
        'the resumed push after a discontinuity',
      );
      expect(await second.exited).toBe(0);
      // The grace ends without a push: the playlist ends.
      const ended = await waitFor(
        async () => (await fetch(playlist)).text(),
        (text) => text.trimEnd().endsWith('#EXT-X-ENDLIST'),
        15_000,
        'EXT-X-ENDLIST',
      );
      expect(fragmentsOf(ended).length).toBeGreaterThan(0);
      expect(await reader.exited).toBe(0);
      polling = false;
      await poll;
      expect(answers.length).toBeGreaterThan(10);
      expect(answers.filter((answer) => answer.status !== 200)).toEqual([]);
      const over = await getStream(stream.id);
      expect({ status: over.status, message: over.statusMessages[0]?.text }).toEqual({
        status: 'Idle',
        message: 'Push ended',
      });
    } finally {
      polling = false;
      first.stop();
      reader?.stop();
    }
  });
});

describe('RTMP playback', () => {
  it('disconnects the RTMP viewers of an output that is deleted', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const output = await createOutput(stream.id, 'RTMP');
    const push = pushTestPattern(uriOf(stream), 'flv', 30);
    await status(stream.id, 'Ingestion');
    const player = playRtmp(output.connection?.uri ?? '', 30);
    try {
      await waitFor(
        () => outputs(stream.id),
        (list) => list[0]?.sessions.length === 1,
        8000,
        'the RTMP viewer session',
      );
      expect((await api('DELETE', `/outputs/${output.id}`)).status).toBe(204);
      expect(await Promise.race([player.exited, sleep(6000).then(() => 'still playing')])).not.toBe('still playing');
    } finally {
      player.stop();
      push.stop();
      await push.exited;
    }
  });
});

describe('snapshots', () => {
  const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
  const JPEG = Buffer.from([0xff, 0xd8]);
  const signature = (image: Buffer | null) => image?.subarray(0, image[0] === 0xff ? 2 : 4);

  it('takes both directions on the same interval, and applies new settings while live', async () => {
    const stream = await createStream({ format: 'RTMP' });
    for (const direction of ['incoming', 'outgoing'])
      expect(
        (
          await api('PUT', `/snapshots/stream/${stream.id}/${direction}`, {
            format: 'PNG',
            quality: 'Low',
            interval: 1,
          })
        ).status,
      ).toBe(200);
    const push = pushTestPattern(uriOf(stream), 'flv', 20);
    try {
      await status(stream.id, 'Ingestion');
      for (const direction of ['incoming', 'outgoing'] as const)
        await waitFor(
          () => snapshot(stream.id, direction),
          (image) => signature(image)?.equals(PNG) === true,
          8000,
          `an ${direction} PNG`,
        );
      // The node hears of the change through the settings' version in GET /node/inputs (no 15 s re-read).
      expect(
        (await api('PUT', `/snapshots/stream/${stream.id}/outgoing`, { format: 'JPEG', quality: 'Low', interval: 1 }))
          .status,
      ).toBe(200);
      await waitFor(
        () => snapshot(stream.id, 'outgoing'),
        (image) => signature(image)?.equals(JPEG) === true,
        6000,
        'an outgoing JPEG after the change',
      );
    } finally {
      push.stop();
      await push.exited;
    }
  });
});
