/**
 * Reading the fragmented MP4 ffmpeg writes (ISO/IEC 14496-12): the init segment's tracks (timescale, kind,
 * RFC 6381 codec, picture size, fragment defaults) and, per fragment (moof), each track's first decode time,
 * duration and whether it starts on a sync sample. Only the boxes the LL-HLS packager needs are read.
 */

export interface Box {
  type: string;
  /** The box's payload (after its header). */
  body: Buffer;
}

/** The boxes inside `data`, one level deep; a box that overruns its container ends the list. */
export function childBoxes(data: Buffer): Box[] {
  const boxes: Box[] = [];
  let offset = 0;
  while (offset + 8 <= data.length) {
    let size = data.readUInt32BE(offset);
    const type = data.toString('latin1', offset + 4, offset + 8);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > data.length) break;
      size = Number(data.readBigUInt64BE(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = data.length - offset;
    }
    if (size < header || offset + size > data.length) break;
    boxes.push({ type, body: data.subarray(offset + header, offset + size) });
    offset += size;
  }
  return boxes;
}

const child = (data: Buffer, type: string) => childBoxes(data).find((box) => box.type === type)?.body;
const children = (data: Buffer, type: string) =>
  childBoxes(data)
    .filter((box) => box.type === type)
    .map((box) => box.body);

/** A sample's flags say it is not a sync sample (a keyframe) with this bit. */
const NON_SYNC = 0x0001_0000;

export interface InitTrack {
  id: number;
  kind: 'video' | 'audio' | 'other';
  timescale: number;
  /** RFC 6381, e.g. `avc1.64001f`, `mp4a.40.2`; null when not known. */
  codec: string | null;
  width: number | null;
  height: number | null;
  /** The movie's fragment defaults (trex). */
  defaultDuration: number;
  defaultFlags: number;
}

/** The tracks an init segment (ftyp + moov) declares. */
export function readInitTracks(init: Buffer): InitTrack[] {
  const moov = child(init, 'moov');
  if (!moov) return [];
  const defaults = new Map<number, { duration: number; flags: number }>();
  for (const trex of children(child(moov, 'mvex') ?? Buffer.alloc(0), 'trex')) {
    if (trex.length < 24) continue;
    defaults.set(trex.readUInt32BE(4), { duration: trex.readUInt32BE(12), flags: trex.readUInt32BE(20) });
  }
  return children(moov, 'trak').flatMap((trak) => {
    const tkhd = child(trak, 'tkhd');
    const mdia = child(trak, 'mdia');
    const mdhd = mdia && child(mdia, 'mdhd');
    const hdlr = mdia && child(mdia, 'hdlr');
    if (!tkhd || !mdhd || !hdlr || hdlr.length < 12) return [];
    const id = tkhd.readUInt32BE(tkhd[0] === 1 ? 20 : 12);
    const timescale = mdhd.readUInt32BE(mdhd[0] === 1 ? 20 : 12);
    const handler = hdlr.toString('latin1', 8, 12);
    const kind = handler === 'vide' ? 'video' : handler === 'soun' ? 'audio' : 'other';
    const stbl = child(child(mdia, 'minf') ?? Buffer.alloc(0), 'stbl');
    const stsd = stbl && child(stbl, 'stsd');
    const entry = stsd && stsd.length > 8 ? childBoxes(stsd.subarray(8))[0] : undefined;
    const sample = entry ? describeSampleEntry(entry) : { codec: null, width: null, height: null };
    const fallback = defaults.get(id) ?? { duration: 0, flags: 0 };
    return [{ id, kind, timescale, ...sample, defaultDuration: fallback.duration, defaultFlags: fallback.flags }];
  });
}

/** The codec and picture size of a sample entry (avc1/avc3 with avcC, mp4a with esds). */
function describeSampleEntry(entry: Box): Pick<InitTrack, 'codec' | 'width' | 'height'> {
  if ((entry.type === 'avc1' || entry.type === 'avc3') && entry.body.length >= 78) {
    // A visual sample entry: 6 reserved bytes, a data reference index, 16 bytes, then width and height.
    const width = entry.body.readUInt16BE(24);
    const height = entry.body.readUInt16BE(26);
    const avcC = child(entry.body.subarray(78), 'avcC');
    const hex = (byte: number | undefined) => (byte ?? 0).toString(16).padStart(2, '0');
    const codec = avcC && avcC.length >= 4 ? `${entry.type}.${hex(avcC[1])}${hex(avcC[2])}${hex(avcC[3])}` : null;
    return { codec, width, height };
  }
  if (entry.type === 'mp4a' && entry.body.length >= 28) {
    const esds = child(entry.body.subarray(28), 'esds');
    const objectType = esds ? audioObjectType(esds.subarray(4)) : null;
    return { codec: objectType === null ? 'mp4a.40.2' : `mp4a.40.${objectType}`, width: null, height: null };
  }
  return { codec: null, width: null, height: null };
}

/** The AAC audio object type in an ES descriptor (its DecoderSpecificInfo's first 5 bits), or null. */
function audioObjectType(descriptor: Buffer): number | null {
  let offset = 0;
  // Descriptors: a tag, a size in up to 4 bytes of 7 bits; ES (3) holds DecoderConfig (4) holds DecoderSpecific (5).
  while (offset < descriptor.length) {
    const tag = descriptor[offset++];
    let size = 0;
    for (let i = 0; i < 4 && offset < descriptor.length; i++) {
      const byte = descriptor[offset++] ?? 0;
      size = (size << 7) | (byte & 0x7f);
      if (!(byte & 0x80)) break;
    }
    if (tag === 0x03) {
      const flags = descriptor[offset + 2] ?? 0;
      offset +=
        3 + (flags & 0x80 ? 2 : 0) + (flags & 0x40 ? 1 + (descriptor[offset + 3] ?? 0) : 0) + (flags & 0x20 ? 2 : 0);
    } else if (tag === 0x04) {
      offset += 13;
    } else if (tag === 0x05) {
      const first = descriptor[offset];
      return first === undefined ? null : first >> 3;
    } else {
      offset += size;
    }
  }
  return null;
}

export interface FragmentTrack {
  trackId: number;
  /** The first sample's decode time, in the track's timescale. */
  baseDecodeTime: number;
  /** The fragment's samples' total duration, in the track's timescale. */
  duration: number;
  /** Whether its first sample is a sync sample (a keyframe). */
  startsWithSync: boolean;
}

/** Each track's run in a fragment's moof. */
export function readFragment(moof: Buffer, tracks: ReadonlyMap<number, InitTrack>): FragmentTrack[] {
  return children(moof, 'traf').flatMap((traf) => {
    const tfhd = child(traf, 'tfhd');
    if (!tfhd || tfhd.length < 8) return [];
    const tfhdFlags = tfhd.readUInt32BE(0) & 0xff_ffff;
    const trackId = tfhd.readUInt32BE(4);
    const track = tracks.get(trackId);
    let offset = 8;
    if (tfhdFlags & 0x01) offset += 8;
    if (tfhdFlags & 0x02) offset += 4;
    let defaultDuration = track?.defaultDuration ?? 0;
    if (tfhdFlags & 0x08) {
      defaultDuration = tfhd.readUInt32BE(offset);
      offset += 4;
    }
    if (tfhdFlags & 0x10) offset += 4;
    const defaultFlags = tfhdFlags & 0x20 ? tfhd.readUInt32BE(offset) : (track?.defaultFlags ?? 0);
    const tfdt = child(traf, 'tfdt');
    const baseDecodeTime = !tfdt ? 0 : tfdt[0] === 1 ? Number(tfdt.readBigUInt64BE(4)) : tfdt.readUInt32BE(4);
    let duration = 0;
    let firstFlags: number | null = null;
    for (const trun of children(traf, 'trun')) {
      const run = readRun(trun, defaultDuration, defaultFlags);
      duration += run.duration;
      firstFlags ??= run.firstFlags;
    }
    return [{ trackId, baseDecodeTime, duration, startsWithSync: !((firstFlags ?? defaultFlags) & NON_SYNC) }];
  });
}

/** A track run's total duration and its first sample's flags (null without samples). */
function readRun(trun: Buffer, defaultDuration: number, defaultFlags: number) {
  const flags = trun.readUInt32BE(0) & 0xff_ffff;
  const count = trun.readUInt32BE(4);
  let offset = 8;
  if (flags & 0x01) offset += 4;
  let firstFlags: number | null = null;
  if (flags & 0x04) {
    firstFlags = trun.readUInt32BE(offset);
    offset += 4;
  }
  const fieldBytes = 4 * [0x100, 0x200, 0x400, 0x800].filter((bit) => flags & bit).length;
  let duration = 0;
  for (let i = 0; i < count && offset + fieldBytes <= trun.length; i++) {
    let field = offset;
    duration += flags & 0x100 ? trun.readUInt32BE(field) : defaultDuration;
    if (flags & 0x100) field += 4;
    if (flags & 0x200) field += 4;
    if (i === 0 && firstFlags === null) firstFlags = flags & 0x400 ? trun.readUInt32BE(field) : defaultFlags;
    offset += fieldBytes;
  }
  return { duration, firstFlags };
}
