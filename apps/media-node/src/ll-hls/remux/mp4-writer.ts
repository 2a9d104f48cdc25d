import { u16, u32 } from '../../big-endian.js';

/**
 * Writing fragmented MP4 (ISO/IEC 14496-12) as ffmpeg's muxer writes it with
 * `frag_keyframe+empty_moov+default_base_moof`: an init segment (ftyp + moov with empty sample tables and mvex), then
 * fragments (moof + mdat) whose data offsets are relative to their own moof. Read back by ../fmp4-boxes.ts.
 */

export interface TrackHeader {
  id: number;
  kind: 'video' | 'audio';
  timescale: number;
  /** The sample entry (avc1 or mp4a with its configuration box). */
  sampleEntry: Buffer;
  width: number;
  height: number;
}

export interface Sample {
  data: Buffer;
  /** In the track's timescale. */
  duration: number;
  /** Presentation minus decode time, in the track's timescale. */
  compositionOffset: number;
  keyframe: boolean;
}

export interface TrackRun {
  trackId: number;
  baseDecodeTime: number;
  samples: Sample[];
}

export function box(type: string, ...payload: Buffer[]): Buffer {
  const size = 8 + payload.reduce((total, each) => total + each.length, 0);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(size);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, ...payload]);
}

function fullBox(type: string, version: number, flags: number, ...payload: Buffer[]): Buffer {
  return box(type, u32(((version << 24) | flags) >>> 0), ...payload);
}

const zeros = (bytes: number) => Buffer.alloc(bytes);
/** The identity matrix of mvhd and tkhd. */
const MATRIX = Buffer.concat([0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000].map(u32));
/** Sample flags: a sync sample (depends on no other) / a non-sync one (depends on others). */
const SYNC_FLAGS = 0x0200_0000;
const NON_SYNC_FLAGS = 0x0101_0000;

/** ftyp + moov of the tracks, their sample tables empty (every sample comes in fragments). */
export function initSegment(tracks: readonly TrackHeader[]): Buffer {
  const ftyp = box('ftyp', Buffer.from('iso5', 'latin1'), u32(512), Buffer.from('iso5iso6mp41', 'latin1'));
  const nextTrack = Math.max(0, ...tracks.map((track) => track.id)) + 1;
  const mvhd = fullBox(
    'mvhd',
    0,
    0,
    zeros(8),
    u32(1000),
    u32(0),
    u32(0x10000),
    u16(0x0100),
    zeros(10),
    MATRIX,
    zeros(24),
    u32(nextTrack),
  );
  const trex = (track: TrackHeader) => fullBox('trex', 0, 0, u32(track.id), u32(1), u32(0), u32(0), u32(0));
  return Buffer.concat([ftyp, box('moov', mvhd, ...tracks.map(trak), box('mvex', ...tracks.map(trex)))]);
}

function trak(track: TrackHeader): Buffer {
  const video = track.kind === 'video';
  const tkhd = fullBox(
    'tkhd',
    0,
    3,
    zeros(8),
    u32(track.id),
    zeros(4),
    u32(0),
    zeros(8),
    u16(0),
    u16(video ? 0 : 1),
    u16(video ? 0 : 0x0100),
    zeros(2),
    MATRIX,
    u32(track.width << 16),
    u32(track.height << 16),
  );
  // Language `und` (ISO 639-2/T packed in 5-bit letters).
  const mdhd = fullBox('mdhd', 0, 0, zeros(8), u32(track.timescale), u32(0), u16(0x55c4), zeros(2));
  const handler = video ? 'vide' : 'soun';
  const hdlr = fullBox(
    'hdlr',
    0,
    0,
    zeros(4),
    Buffer.from(handler, 'latin1'),
    zeros(12),
    Buffer.from(`${video ? 'Video' : 'Sound'}Handler\0`, 'latin1'),
  );
  const mediaHeader = video ? fullBox('vmhd', 0, 1, zeros(8)) : fullBox('smhd', 0, 0, zeros(4));
  const dinf = box('dinf', fullBox('dref', 0, 0, u32(1), fullBox('url ', 0, 1)));
  const emptyTable = (type: string) => fullBox(type, 0, 0, u32(0));
  const stbl = box(
    'stbl',
    fullBox('stsd', 0, 0, u32(1), track.sampleEntry),
    emptyTable('stts'),
    emptyTable('stsc'),
    fullBox('stsz', 0, 0, u32(0), u32(0)),
    emptyTable('stco'),
  );
  return box('trak', tkhd, box('mdia', mdhd, hdlr, box('minf', mediaHeader, dinf, stbl)));
}

/** An avc1 sample entry: a visual sample entry of the picture's size, with the decoder configuration (avcC). */
export function avc1Entry(avcC: Buffer, width: number, height: number): Buffer {
  return box(
    'avc1',
    zeros(6),
    u16(1),
    zeros(16),
    u16(width),
    u16(height),
    u32(0x00480000),
    u32(0x00480000),
    zeros(4),
    u16(1),
    zeros(32),
    u16(0x0018),
    u16(0xffff),
    box('avcC', avcC),
  );
}

/** An mp4a sample entry with its ES descriptor carrying the AudioSpecificConfig. */
export function mp4aEntry(audioSpecificConfig: Buffer, channels: number, sampleRate: number): Buffer {
  const descriptor = (tag: number, ...body: Buffer[]) => {
    const payload = Buffer.concat(body);
    return Buffer.concat([Buffer.from([tag, 0x80, 0x80, 0x80, payload.length & 0x7f]), payload]);
  };
  // DecoderConfig: MPEG-4 audio (0x40), an audio stream (5 << 2 | 1), buffer size and bit rates unknown (0).
  const decoderConfig = descriptor(
    0x04,
    Buffer.from([0x40, 0x15]),
    zeros(3),
    u32(0),
    u32(0),
    descriptor(0x05, audioSpecificConfig),
  );
  const es = descriptor(0x03, u16(0), Buffer.from([0]), decoderConfig, descriptor(0x06, Buffer.from([0x02])));
  const rate = sampleRate < 0x10000 ? sampleRate : 0;
  return box(
    'mp4a',
    zeros(6),
    u16(1),
    zeros(8),
    u16(channels),
    u16(16),
    zeros(4),
    u32(rate << 16),
    fullBox('esds', 0, 0, es),
  );
}

/** One fragment: moof (mfhd, a traf per track with samples) and its mdat, each track's data in turn. */
export function fragment(sequence: number, runs: readonly TrackRun[]): Buffer {
  const present = runs.filter((run) => run.samples.length > 0);
  // The trafs' sizes do not depend on the offsets they carry: build once to measure, then with the offsets.
  const build = (dataStart: number) => {
    let offset = dataStart;
    const trafs = present.map((run) => {
      const traf = trafOf(run, offset);
      offset += run.samples.reduce((total, sample) => total + sample.data.length, 0);
      return traf;
    });
    return box('moof', fullBox('mfhd', 0, 0, u32(sequence)), ...trafs);
  };
  const moofSize = build(0).length;
  const moof = build(moofSize + 8);
  const mdat = box('mdat', ...present.flatMap((run) => run.samples.map((sample) => sample.data)));
  return Buffer.concat([moof, mdat]);
}

function trafOf(run: TrackRun, dataOffset: number): Buffer {
  // default-base-is-moof (0x020000): data offsets count from the moof's first byte.
  const tfhd = fullBox('tfhd', 0, 0x02_0000, u32(run.trackId));
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(BigInt(run.baseDecodeTime));
  const tfdt = fullBox('tfdt', 1, 0, time);
  // Data offset, then per sample: duration, size, flags, composition offset (version 1: signed).
  const fields = run.samples.map((sample) =>
    Buffer.concat([
      u32(sample.duration),
      u32(sample.data.length),
      u32(sample.keyframe ? SYNC_FLAGS : NON_SYNC_FLAGS),
      u32(sample.compositionOffset),
    ]),
  );
  const trun = fullBox(
    'trun',
    1,
    0x01 | 0x100 | 0x200 | 0x400 | 0x800,
    u32(run.samples.length),
    u32(dataOffset),
    ...fields,
  );
  return box('traf', tfhd, tfdt, trun);
}
