import type { StreamInput } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { waitFor } from './harness.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';
import { publishWhip, type WhipPublisher } from './whip-publisher.js';

/**
 * A WHIP session the node ends is ended for its publisher at once (DTLS's close_notify, RFC 9725's session
 * termination): else a publisher (werift, or any that waits for ICE consent to expire) sends for 30 s into a session
 * nobody counts, and publishes again only then.
 */
const world = useMediaNode('media-whip-end');
const { api, createStream, status } = streamsOf(world);

async function published(stream: StreamInput, answered?: () => Promise<void>): Promise<WhipPublisher> {
  const publisher = await publishWhip(uriOf(stream), stream.accessToken, answered);
  if ('refused' in publisher) throw new Error(`the offer was refused: ${publisher.refused}`);
  return publisher;
}

/** Why the publisher's session ended, once it did: the node is to tell it within a few seconds. */
const told = (publisher: WhipPublisher) =>
  waitFor(
    async () => publisher.lost(),
    (why) => why !== null,
    8_000,
    'the publisher told its session is over',
  );

describe('a WHIP session the node ends', () => {
  it('is over for its publisher at once when the stream is stopped from the console', async () => {
    const stream = await createStream({ format: 'WebRTC', access: 'PrivateIngoing' });
    const publisher = await published(stream);
    try {
      publisher.feed();
      await status(stream.id, 'Ingestion', 15_000);
      expect(publisher.lost()).toBeNull();
      // The node reads its streams every 1.5 s and ends the push then.
      expect((await api('PUT', `/inputs/${stream.id}`, { state: 'Idle' })).status).toBe(200);
      expect(await told(publisher)).toBe('closed by the node (DTLS close_notify)');
    } finally {
      await publisher.close();
    }
  });

  it('is over for its publisher at once when its admission is refused as its connection comes up', async () => {
    const stream = await createStream({ format: 'WebRTC' });
    const first: { publisher?: WhipPublisher } = {};
    // The second publisher's offer is admitted (nobody pushes yet); before its connection comes up, another publisher
    // takes the stream: asked again once connected, the node refuses it (the stream is being pushed) and ends it.
    const second = await published(stream, async () => {
      first.publisher = await published(stream);
      await status(stream.id, 'Ingestion', 15_000);
    });
    try {
      expect(await told(second)).toBe('closed by the node (DTLS close_notify)');
      // The first goes on.
      expect(first.publisher?.lost()).toBeNull();
      await status(stream.id, 'Ingestion');
    } finally {
      await second.close();
      await first.publisher?.close();
    }
  });
});
