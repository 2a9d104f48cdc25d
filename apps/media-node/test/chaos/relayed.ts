import type { Relay } from '@streamcloud/contract';
import type { ControlPlane, Push } from '../harness.js';
import { countingRelay, ffmpeg, freePort, sleep, tcpListening, waitFor } from '../harness.js';

/**
 * The chaos run's relay: one stream relayed over RTMP to a receiver on loopback that takes the next connection
 * whenever one ends (as a platform's ingest does). What must hold: after each fault the relay is Relaying again
 * by itself, with no one touching it.
 */
export interface RelayedWorld {
  relayId: string;
  /** Connections the receiver took so far. */
  readonly connections: number;
  /** Bytes the relay exchanged with its destination, both ways (through a counting relay in front of the receiver). */
  bytes(): number;
  /**
   * The relay's messages after `since`, with how the receiver's listeners failed, oldest first ("+0.7 s Relay to …
   * failed: …"), for a slow recovery.
   */
  saidSince(since: number): Promise<string>;
  /** Waits until the relay is Relaying and has sent bytes; answers how long that took from `since`. */
  relaying(since: number, what: string, timeoutMs: number): Promise<number>;
  close(): Promise<void>;
}

export async function startRelayedWorld(plane: ControlPlane, streamId: string): Promise<RelayedWorld> {
  const port = await freePort();
  let stopped = false;
  let current: Push | null = null;
  let connections = 0;
  /** How the receiver's listeners ended when they failed (the latest), for a slow recovery's story. */
  const ended: string[] = [];
  const listening = (async () => {
    while (!stopped) {
      // One connection per listener (ffmpeg's -listen 1). The relay connects before its ffmpeg has probed the
      // stream and starts the RTMP handshake (as a platform's ingest, the receiver waits for it: 15 s of silence
      // ends the connection, a sender killed without a word too). `-y`: /dev/null exists, and without it each
      // listener refused to write there and dropped its connection once the media came (the relay then reconnected
      // all along, and its recovery times measured the receiver's churn).
      current = ffmpeg([
        ...['-rw_timeout', '15000000', '-listen', '1', '-i', `rtmp://127.0.0.1:${port}/live/any`],
        ...['-c', 'copy', '-f', 'flv', '-y', '/dev/null'],
      ]);
      // Listening, or already over (a listener that could not start, or whose client came and went at once): the
      // next one starts without waiting out the bound.
      const listening = waitFor(async () => tcpListening(port), Boolean, 10_000, 'the relay receiver listening');
      const ready = await Promise.race([listening.then(() => true), current.exited.then(() => false)]).catch(
        () => false,
      );
      if (ready) connections++;
      const code = await current.exited;
      if (code !== 0)
        ended.push(
          `${new Date().toISOString()} receiver exited ${code}: ${current.stderr().trim().split('\n').at(-1) ?? ''}`,
        );
      if (ended.length > 50) ended.shift();
      if (!ready) await sleep(500);
    }
  })();
  await waitFor(
    async () => connections,
    (count) => count > 0,
    10_000,
    'the relay receiver listening',
  );
  // The relay sends through a counting relay (the billing check's reference for its bytes).
  const counter = await countingRelay(port);
  const created = await plane.api<Relay>('POST', '/relays', {
    streamId,
    format: 'RTMP',
    output: { server: `rtmp://127.0.0.1:${counter.port}/live`, key: 'chaos' },
  });
  if (created.status !== 201) throw new Error(`relay: ${created.status} ${JSON.stringify(created.body)}`);
  const relayId = created.body.id;
  return {
    relayId,
    get connections() {
      // The receiver counts a listen each time it is ready; the first one is not a connection yet.
      return connections - 1;
    },
    bytes: () => counter.bytes() + counter.bytesBack(),
    async saidSince(since) {
      const relay = (await plane.api<Relay>('GET', `/relays/${relayId}`)).body;
      const receiver = ended.map((line) => ({ at: Date.parse(line.slice(0, 24)), text: line.slice(25) }));
      return [
        ...(relay?.messages ?? []).map((message) => ({ at: Date.parse(message.at), text: message.text })),
        ...receiver,
      ]
        .filter((message) => message.at >= since)
        .sort((a, b) => a.at - b.at)
        .map((message) => `+${((message.at - since) / 1000).toFixed(1)} s ${message.text}`)
        .join('; ');
    },
    async relaying(since, what, timeoutMs) {
      await waitFor(
        async () => (await plane.api<Relay>('GET', `/relays/${relayId}`)).body,
        (relay) => relay?.state === 'Relaying' && relay.uploaded > 0,
        timeoutMs,
        `the relay Relaying (bytes sent) after ${what}`,
      );
      return Date.now() - since;
    },
    async close() {
      stopped = true;
      current?.stop();
      await Promise.race([listening, sleep(5000)]);
      await counter.close();
    },
  };
}
