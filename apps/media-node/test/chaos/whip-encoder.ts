import type { StreamInput } from '@streamcloud/contract';
import { sleep, tcpListening } from '../harness.js';
import { uriOf } from '../streams.js';
import { publishWhip, SOURCE_LIFE_MS } from '../whip-publisher.js';
import type { Encoder, WhipSession } from './world.js';

/**
 * A WHIP encoder as a browser or OBS runs one: a werift publisher sends ffmpeg's VP8 test pattern to the stream's WHIP
 * endpoint (`publishWhip`), and when its session is lost (ICE failed, the node ending it with DTLS's close_notify,
 * the node's port refusing: the node died) it publishes again a second later. Its bytes are the RTP packets its
 * sender sent, headers and payloads (the node counts the RTP packets it received; SRTP's and DTLS's overhead is
 * neither's); `sessions` keeps each publication's, for the billing check's story of a WHIP push.
 */
export function startWhipEncoder(stream: StreamInput): Encoder {
  const whip = new URL(uriOf(stream));
  let stopped = false;
  let pushes = 0;
  const sessions: WhipSession[] = [];
  const publishOnce = async () => {
    const publisher = await publishWhip(whip.toString(), stream.accessToken);
    if ('refused' in publisher) return;
    const session: WhipSession = { answeredAt: Date.now(), bytes: 0, ended: null };
    sessions.push(session);
    try {
      // Until the session is lost or the encoder stopped (a stop may come while this push was being set up).
      for (let fed = 0; !session.ended && !stopped; await sleep(500)) {
        if (Date.now() - fed > SOURCE_LIFE_MS) {
          publisher.feed();
          fed = Date.now();
        }
        // Its statistics may not answer once: what it sent only grows.
        session.bytes = Math.max(session.bytes, await publisher.sent());
        session.ended = publisher.lost() ?? (tcpListening(Number(whip.port)) ? null : "the node's port refusing");
      }
      session.bytes = Math.max(session.bytes, await publisher.sent());
      session.ended ??= 'stopped';
    } finally {
      await publisher.close();
    }
  };
  const looping = (async () => {
    while (!stopped) {
      pushes++;
      await publishOnce();
      if (!stopped) await sleep(1000);
    }
  })();
  return {
    stream,
    sessions,
    get pushes() {
      return pushes;
    },
    bytes: () => sessions.reduce((sum, session) => sum + session.bytes, 0),
    async stop() {
      stopped = true;
      await looping;
    },
  };
}
