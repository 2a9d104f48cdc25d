import type { TransportStats } from '../../streams/types.js';

/** SRT control packet types (the 15 bits after the control flag) this meter reads. */
const ACK = 2;
/** A full ACK carries the receiver's RTT estimate (µs) as its second word after the 16-byte header. */
const FULL_ACK_MIN_LENGTH = 16 + 8;
const SEQUENCE_SPACE = 0x80000000;

/**
 * The statistics of one SRT session, read from the datagrams the node forwards between the caller and
 * its ffmpeg listener (only packet headers, which SRT never encrypts): data packets received from the
 * caller, losses (gaps in their sequence numbers, as SRT's own `pktRcvLoss` counts them, whether or not a
 * retransmission repairs them later), retransmissions (data packets with the R flag) and the listener's
 * round-trip time estimate from its full ACKs. Dropped packets (too late to play) are decided inside the
 * listener and not visible here.
 */
export class SrtSessionMeter {
  private packetsReceived = 0;
  private packetsLost = 0;
  private packetsRetransmitted = 0;
  private rttMs: number | null = null;
  /** The sequence number the next new data packet should carry; null before the first one. */
  private expected: number | null = null;

  /** A datagram from the caller (to the listener). */
  fromCaller(packet: Buffer): void {
    if (packet.length < 16 || ((packet[0] ?? 0) & 0x80) !== 0) return;
    this.packetsReceived += 1;
    if (((packet[4] ?? 0) & 0x04) !== 0) {
      this.packetsRetransmitted += 1;
      return;
    }
    const sequence = packet.readUInt32BE(0) & 0x7fffffff;
    if (this.expected !== null) {
      const gap = (sequence - this.expected + SEQUENCE_SPACE) % SEQUENCE_SPACE;
      // A gap past half the sequence space is a packet older than expected (reordered), not a loss.
      if (gap >= SEQUENCE_SPACE / 2) return;
      this.packetsLost += gap;
    }
    this.expected = (sequence + 1) % SEQUENCE_SPACE;
  }

  /** A datagram from the listener (to the caller). */
  fromListener(packet: Buffer): void {
    if (packet.length < FULL_ACK_MIN_LENGTH || ((packet[0] ?? 0) & 0x80) === 0) return;
    if ((packet.readUInt16BE(0) & 0x7fff) !== ACK) return;
    this.rttMs = packet.readUInt32BE(16 + 4) / 1000;
  }

  stats(): TransportStats {
    return {
      packetsReceived: this.packetsReceived,
      packetsLost: this.packetsLost,
      packetsRetransmitted: this.packetsRetransmitted,
      packetsDropped: null,
      rttMs: this.rttMs,
    };
  }
}
