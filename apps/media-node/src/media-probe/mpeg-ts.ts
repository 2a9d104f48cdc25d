/**
 * The elementary streams of an MPEG-TS file (ISO/IEC 13818-1) as nginx-rtmp writes its HLS fragments: the PAT
 * names the PMT, the PMT each stream's type and PID, and each stream's PES packets carry its access units with
 * their PTS and DTS (90 kHz). Just enough demuxing to read a fragment's tracks in the node (media-probe/fragment.ts);
 * anything it does not understand makes it give up (null), and the caller asks ffprobe instead.
 */

const PACKET = 188;
const SYNC = 0x47;
/** PES packets kept per stream: a 1–2 s fragment has ~60 video and ~100 audio PES; more is not a fragment. */
const MAX_PES_PER_STREAM = 2000;

export interface Pes {
  pts: number | null;
  dts: number | null;
  data: Buffer;
}

export interface ElementaryStream {
  pid: number;
  /** The PMT's stream_type: 0x1b H.264, 0x0f AAC (ADTS), 0x03/0x04 MPEG audio, 0x24 H.265… */
  streamType: number;
  pes: Pes[];
}

interface Assembling {
  stream: ElementaryStream;
  parts: Buffer[];
}

/** The streams of `file` in the PMT's order with their PES packets; null when it is not MPEG-TS as expected. */
export function demuxTs(file: Buffer): ElementaryStream[] | null {
  if (file.length < PACKET || file.length % PACKET !== 0) return null;
  let pmtPid: number | null = null;
  let streams: ElementaryStream[] | null = null;
  const assembling = new Map<number, Assembling>();
  const finish = (entry: Assembling) => {
    const pes = parsePes(Buffer.concat(entry.parts));
    if (pes) entry.stream.pes.push(pes);
    entry.parts = [];
  };
  for (let offset = 0; offset < file.length; offset += PACKET) {
    if (file.readUInt8(offset) !== SYNC) return null;
    const packet = file.subarray(offset, offset + PACKET);
    const start = (packet.readUInt8(1) & 0x40) !== 0;
    const pid = ((packet.readUInt8(1) & 0x1f) << 8) | packet.readUInt8(2);
    const adaptation = (packet.readUInt8(3) >> 4) & 0x3;
    let payloadAt = 4;
    if (adaptation === 2 || adaptation === 3) payloadAt += 1 + packet.readUInt8(4);
    if (adaptation === 2 || payloadAt >= PACKET) continue;
    const payload = packet.subarray(payloadAt);
    if (pid === 0 && start) pmtPid = parsePat(payload);
    else if (pid === pmtPid && start && streams === null) {
      streams = parsePmt(payload);
      if (!streams) return null;
      for (const stream of streams) assembling.set(stream.pid, { stream, parts: [] });
    } else {
      const entry = assembling.get(pid);
      if (!entry) continue;
      if (start && entry.parts.length > 0) finish(entry);
      if (!start && entry.parts.length === 0) continue; // the tail of a PES begun before the file
      entry.parts.push(payload);
      if (entry.stream.pes.length > MAX_PES_PER_STREAM) return null;
    }
  }
  for (const entry of assembling.values()) if (entry.parts.length > 0) finish(entry);
  return streams;
}

/** A section's body after its pointer field, and its length from section_length (CRC excluded). */
function section(payload: Buffer): Buffer | null {
  const at = 1 + payload.readUInt8(0);
  if (at + 3 > payload.length) return null;
  const length = ((payload.readUInt8(at + 1) & 0x0f) << 8) | payload.readUInt8(at + 2);
  const end = at + 3 + length - 4;
  return end <= payload.length && length >= 9 ? payload.subarray(at, end) : null;
}

/** The first program's PMT PID. */
function parsePat(payload: Buffer): number | null {
  const body = section(payload);
  if (body?.readUInt8(0) !== 0x00) return null;
  for (let at = 8; at + 4 <= body.length; at += 4) {
    const program = body.readUInt16BE(at);
    if (program !== 0) return body.readUInt16BE(at + 2) & 0x1fff;
  }
  return null;
}

function parsePmt(payload: Buffer): ElementaryStream[] | null {
  const body = section(payload);
  if (body?.readUInt8(0) !== 0x02) return null;
  const infoLength = body.readUInt16BE(10) & 0x0fff;
  const streams: ElementaryStream[] = [];
  for (let at = 12 + infoLength; at + 5 <= body.length; ) {
    const streamType = body.readUInt8(at);
    const pid = body.readUInt16BE(at + 1) & 0x1fff;
    const esInfo = body.readUInt16BE(at + 3) & 0x0fff;
    streams.push({ pid, streamType, pes: [] });
    at += 5 + esInfo;
  }
  return streams;
}

/** A 33-bit timestamp of a PES header (5 bytes with marker bits). */
const timestamp = (b: Buffer, at: number): number =>
  (b.readUInt8(at) & 0x0e) * 536870912 + // bits 32..30, shifted left 29
  (b.readUInt8(at + 1) << 22) +
  ((b.readUInt8(at + 2) & 0xfe) << 14) +
  (b.readUInt8(at + 3) << 7) +
  (b.readUInt8(at + 4) >> 1);

function parsePes(pes: Buffer): Pes | null {
  if (pes.length < 9 || pes.readUInt8(0) !== 0 || pes.readUInt8(1) !== 0 || pes.readUInt8(2) !== 1) return null;
  const flags = pes.readUInt8(7) >> 6;
  const headerLength = pes.readUInt8(8);
  const dataAt = 9 + headerLength;
  if (dataAt > pes.length) return null;
  const pts = flags & 0x2 ? timestamp(pes, 9) : null;
  const dts = flags === 0x3 ? timestamp(pes, 14) : pts;
  return { pts, dts, data: pes.subarray(dataAt) };
}
