import { createSocket, type Socket } from 'node:dgram';

/**
 * A UDP relay on loopback in front of a node's SRT port that counts the media the node took: the payload of each
 * data packet once the node acknowledged it (an SRT ACK names the next sequence number it waits for). What a sender
 * sends into a dead node (SRT notices the loss only after its peer idle timeout, 5 s) is never acknowledged, so it
 * is not counted; a retransmission is counted once.
 */
export interface SrtCounter {
  port: number;
  /** Payload bytes of the data packets the node acknowledged, over every connection. */
  bytes(): number;
  close(): Promise<void>;
}

/** A peer unheard of this long is gone (its sender stopped, or its push was cut and it connects anew). */
const PEER_IDLE_MS = 10_000;
/** SRT's header of a data packet; its first bit is 0 (a control packet's is 1). */
const DATA_HEADER = 16;
const ACK = 2;
const SEQ_MASK = 0x7fffffff;
/** Whether sequence number `a` comes before `b` (31-bit numbers that wrap). */
const before = (a: number, b: number) => a !== b && ((b - a) & SEQ_MASK) < 0x40000000;

interface Peer {
  upstream: Socket;
  /** Payload sizes of the data packets sent and not acknowledged yet, by sequence number. */
  pending: Map<number, number>;
  /** The next sequence number the node waits for (null: no ACK yet). */
  acked: number | null;
  heardAt: number;
}

export async function startSrtCounter(targetPort: number): Promise<SrtCounter> {
  let bytes = 0;
  let closed = false;
  const peers = new Map<string, Peer>();
  const front = createSocket('udp4');
  const acknowledge = (peer: Peer, next: number) => {
    if (peer.acked !== null && !before(peer.acked, next)) return;
    peer.acked = next;
    for (const [seq, size] of peer.pending) {
      if (!before(seq, next)) continue;
      bytes += size;
      peer.pending.delete(seq);
    }
  };
  front.on('message', (message, from) => {
    const key = `${from.address}:${from.port}`;
    let peer = peers.get(key);
    if (!peer) {
      const upstream = createSocket('udp4');
      const created: Peer = { upstream, pending: new Map(), acked: null, heardAt: Date.now() };
      upstream.on('message', (back) => {
        const control = (back[0] ?? 0) & 0x80;
        if (control && (back.readUInt16BE(0) & 0x7fff) === ACK && back.length >= 20)
          acknowledge(created, back.readUInt32BE(16) & SEQ_MASK);
        front.send(back, from.port, from.address);
      });
      upstream.on('error', () => undefined);
      peer = created;
      peers.set(key, peer);
    }
    peer.heardAt = Date.now();
    if (((message[0] ?? 0) & 0x80) === 0 && message.length > DATA_HEADER) {
      const seq = message.readUInt32BE(0) & SEQ_MASK;
      // Not one acknowledged already (a retransmission of it is not counted again).
      if (peer.acked === null || !before(seq, peer.acked)) peer.pending.set(seq, message.length - DATA_HEADER);
    }
    peer.upstream.send(message, targetPort, '127.0.0.1');
  });
  front.on('error', () => undefined);
  const sweeping = setInterval(() => {
    for (const [key, peer] of peers) {
      if (Date.now() - peer.heardAt < PEER_IDLE_MS) continue;
      peer.upstream.close();
      peers.delete(key);
    }
  }, 2000);
  await new Promise<void>((resolve) => front.bind(0, '127.0.0.1', resolve));
  return {
    port: front.address().port,
    bytes: () => bytes,
    async close() {
      // Once: the run stops its encoders before billing, and again on its way out.
      if (closed) return;
      closed = true;
      clearInterval(sweeping);
      for (const peer of peers.values()) peer.upstream.close();
      peers.clear();
      await new Promise<void>((resolve) => front.close(() => resolve()));
    },
  };
}
