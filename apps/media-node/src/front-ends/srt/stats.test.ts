import { describe, expect, it } from 'vitest';
import { SrtSessionMeter } from './stats.js';

/** An SRT data packet: 16-byte header, sequence number, R flag in the message word, some payload. */
const data = (sequence: number, retransmitted = false) => {
  const packet = Buffer.alloc(16 + 188);
  packet.writeUInt32BE(sequence & 0x7fffffff, 0);
  packet.writeUInt32BE((0xc0000000 | (retransmitted ? 0x04000000 : 0) | 1) >>> 0, 4);
  return packet;
};
/** An SRT control packet of `type` with a CIF of `words`. */
const control = (type: number, words: number[]) => {
  const packet = Buffer.alloc(16 + words.length * 4);
  packet.writeUInt16BE(0x8000 | type, 0);
  words.forEach((word, i) => {
    packet.writeUInt32BE(word, 16 + i * 4);
  });
  return packet;
};

describe('SrtSessionMeter', () => {
  it('counts data packets, gaps as losses, R-flagged packets as retransmissions, and reads the RTT of full ACKs', () => {
    const meter = new SrtSessionMeter();
    expect(meter.stats()).toEqual({
      packetsReceived: 0,
      packetsLost: 0,
      packetsRetransmitted: 0,
      packetsDropped: null,
      rttMs: null,
    });
    meter.fromCaller(control(0, [0, 0, 0, 0])); // a handshake is no data
    for (const sequence of [0x7ffffffe, 0x7fffffff, 0, 3, 4]) meter.fromCaller(data(sequence));
    meter.fromCaller(data(1, true));
    meter.fromCaller(data(2)); // late, not a loss
    meter.fromListener(control(2, [5])); // a light ACK has no RTT
    meter.fromListener(control(3, [1, 2])); // a NAK
    meter.fromListener(control(2, [5, 12_500, 300, 8192]));
    expect(meter.stats()).toEqual({
      packetsReceived: 7,
      packetsLost: 2,
      packetsRetransmitted: 1,
      packetsDropped: null,
      rttMs: 12.5,
    });
  });
});
