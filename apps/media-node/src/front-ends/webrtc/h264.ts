import type { VideoCoding } from '../../probe.js';

/**
 * H.264 to WebRTC viewers without re-encoding (docs/decisions.md, "WebRTC without re-encoding"): whether a
 * stream's video can go to a viewer as it is, which H.264 of the viewer's offer to answer with, and the
 * WHEP feed's arguments and keyframe test for it. Browsers decode H.264 without reordered frames (no
 * B-frames), 4:2:0 8-bit, in the profiles their offer names; anything else is re-encoded to VP8 (whep.ts).
 */

export const H264 = { mimeType: 'video/H264', clockRate: 90000 } as const;

/** The payload type the feed's ffmpeg writes (werift rewrites it to the one each viewer negotiated). */
const FEED_PAYLOAD_TYPE = 102;

/** The H.264 profiles browsers decode, as RTP's profile-level-id tells them apart (RFC 6184, 8.1). */
type Profile = 'Constrained Baseline' | 'Baseline' | 'Main' | 'High' | 'Constrained High' | 'High 4:4:4 Predictive';

/** ffprobe's profile names of those a browser may take (x264 writes these). */
const PROBED: Record<string, Profile> = {
  'Constrained Baseline': 'Constrained Baseline',
  Baseline: 'Baseline',
  Main: 'Main',
  High: 'High',
  'High 4:4:4 Predictive': 'High 4:4:4 Predictive',
};

/**
 * The offered profiles whose decoders take a stream of each profile (without B-frames), the closest first:
 * Constrained Baseline is the common subset of all but Baseline; Constrained High is High without B slices,
 * which is what a High stream without B-frames is; a High 4:4:4 Predictive decoder takes every High profile
 * (H.264 A.2.11), and is what Debian's Chromium offers beside Baseline and Main (it offers no plain High).
 */
const TAKEN_BY: Record<Profile, readonly Profile[]> = {
  'Constrained Baseline': [
    'Constrained Baseline',
    'Baseline',
    'Main',
    'Constrained High',
    'High',
    'High 4:4:4 Predictive',
  ],
  Baseline: ['Baseline'],
  Main: ['Main', 'High', 'High 4:4:4 Predictive'],
  High: ['High', 'Constrained High', 'High 4:4:4 Predictive'],
  'Constrained High': ['Constrained High', 'High', 'High 4:4:4 Predictive'],
  'High 4:4:4 Predictive': ['High 4:4:4 Predictive'],
};

/** 8-bit pixel formats browsers' H.264 decoders take: 4:2:0 (yuvj: full range, as some cameras send); 4:4:4 in High 4:4:4 Predictive. */
const PIXEL_FORMATS = new Set(['yuv420p', 'yuvj420p']);
const PIXEL_FORMATS_444 = new Set([...PIXEL_FORMATS, 'yuv444p', 'yuvj444p']);

/** How a stream's video goes to a WebRTC viewer: H.264 as it is, or re-encoded to VP8 (and why). */
export type VideoPath = { codec: 'H264'; payloadType: number } | { codec: 'VP8'; reason: string };

/** Whether a source's video can go to browsers as it is: its profile, or why not. */
export function h264Source(
  coding: VideoCoding | null | undefined,
): { ok: true; profile: Profile } | { ok: false; reason: string } {
  if (coding === undefined) return { ok: false, reason: "the source's video was not probed yet" };
  if (coding === null) return { ok: false, reason: 'the source has no video' };
  if (coding.codec !== 'h264') return { ok: false, reason: `the source's video is ${coding.codec}, not H.264` };
  if (coding.bFrames) return { ok: false, reason: "the source's H.264 has B-frames, which browsers do not take" };
  const profile = PROBED[coding.profile ?? ''];
  if (!profile) return { ok: false, reason: `browsers do not decode the source's H.264 profile ${coding.profile}` };
  const pixelFormats = profile === 'High 4:4:4 Predictive' ? PIXEL_FORMATS_444 : PIXEL_FORMATS;
  if (!pixelFormats.has(coding.pixFmt ?? ''))
    return { ok: false, reason: `browsers do not decode the source's H.264 in ${coding.pixFmt ?? 'its pixel format'}` };
  return { ok: true, profile };
}

/** An H.264 format of a WebRTC offer's video. */
interface OfferedH264 {
  payloadType: number;
  /** null: a profile no browser path here takes (Extended, High 10...). */
  profile: Profile | null;
  packetizationMode: number;
}

/** The profile of an RTP profile-level-id (`42e01f`): profile_idc and the constraint flags (RFC 6184, table 5). */
function profileOf(profileLevelId: string): Profile | null {
  if (!/^[0-9a-f]{6}$/i.test(profileLevelId)) return null;
  const idc = Number.parseInt(profileLevelId.slice(0, 2), 16);
  const iop = Number.parseInt(profileLevelId.slice(2, 4), 16);
  if (idc === 0x42) return iop & 0x40 ? 'Constrained Baseline' : 'Baseline';
  if (idc === 0x4d) return iop & 0x80 ? 'Constrained Baseline' : 'Main';
  if (idc === 0x58) return (iop & 0xc0) === 0xc0 ? 'Constrained Baseline' : null;
  if (idc === 0x64) return (iop & 0x0c) === 0x0c ? 'Constrained High' : 'High';
  if (idc === 0xf4) return 'High 4:4:4 Predictive';
  return null;
}

/** The lines of an offer's first video media section, and where they are. */
function videoSection(lines: string[]): { start: number; end: number } | null {
  const start = lines.findIndex((line) => line.startsWith('m=video '));
  if (start < 0) return null;
  const next = lines.findIndex((line, index) => index > start && line.startsWith('m='));
  return { start, end: next < 0 ? lines.length : next };
}

/** A format of an offer's video: payload type, encoding name (upper case) and fmtp parameters. */
interface OfferedFormat {
  payloadType: number;
  name: string;
  params: Map<string, string>;
}

/** The formats of the offer's (first) video. */
function videoFormats(sdp: string): OfferedFormat[] {
  const lines = sdp.split(/\r?\n/);
  const section = videoSection(lines);
  if (!section) return [];
  const media = lines.slice(section.start, section.end);
  const fmtp = new Map<number, Map<string, string>>();
  for (const line of media) {
    const match = /^a=fmtp:(\d+) (.*)$/.exec(line);
    if (!match) continue;
    const params = new Map<string, string>();
    for (const pair of (match[2] ?? '').split(';')) {
      const [key, value] = pair.split('=').map((part) => part.trim());
      if (key) params.set(key.toLowerCase(), value ?? '');
    }
    fmtp.set(Number(match[1]), params);
  }
  return media.flatMap((line) => {
    const match = /^a=rtpmap:(\d+) ([^/\s]+)\//.exec(line);
    if (!match) return [];
    const payloadType = Number(match[1]);
    return [{ payloadType, name: (match[2] ?? '').toUpperCase(), params: fmtp.get(payloadType) ?? new Map() }];
  });
}

/** The H.264 formats the offer's video takes. */
export function offeredH264(sdp: string): OfferedH264[] {
  return videoFormats(sdp)
    .filter((format) => format.name === 'H264')
    .map(({ payloadType, params }) => ({
      payloadType,
      // Without a profile-level-id, RFC 6184 means Baseline level 1 (42000a).
      profile: profileOf(params.get('profile-level-id') ?? '42000a'),
      packetizationMode: Number(params.get('packetization-mode') ?? 0),
    }));
}

/** The payload type of the offer's VP8; null without it. */
export function offeredVp8(sdp: string): number | null {
  return videoFormats(sdp).find((format) => format.name === 'VP8')?.payloadType ?? null;
}

/**
 * How a viewer with this offer gets a source coded so: H.264 as it is when the source allows it and the
 * offer has a format whose decoder takes the source's profile in packetization mode 1 (the feed's ffmpeg
 * fragments large NAL units, FU-A); else VP8, with the reason.
 */
export function videoPathFor(coding: VideoCoding | null | undefined, sdp: string): VideoPath {
  const source = h264Source(coding);
  if (!source.ok) return { codec: 'VP8', reason: source.reason };
  const offered = offeredH264(sdp).filter((format) => format.packetizationMode === 1);
  if (offered.length === 0) return { codec: 'VP8', reason: "the viewer's offer has no H.264 (packetization mode 1)" };
  for (const profile of TAKEN_BY[source.profile]) {
    const format = offered.find((candidate) => candidate.profile === profile);
    if (format) return { codec: 'H264', payloadType: format.payloadType };
  }
  const names = [...new Set(offered.map((format) => format.profile ?? 'other'))].join(', ');
  return {
    codec: 'VP8',
    reason: `the viewer's offer takes H.264 ${names}, which does not play the source's ${source.profile}`,
  };
}

/**
 * The offer with only one format of its video left (`payloadType`), so that the answer names exactly the
 * one the node sends: werift answers with every offered format of a codec it has, and would send the first.
 */
export function withVideoFormatOnly(sdp: string, payloadType: number): string {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  const lines = sdp.split(/\r?\n/);
  const section = videoSection(lines);
  if (!section) return sdp;
  const kept = String(payloadType);
  return lines
    .flatMap((line, index) => {
      if (index < section.start || index >= section.end) return [line];
      if (index === section.start) {
        const [media, port, proto] = line.split(' ');
        return [`${media} ${port} ${proto} ${kept}`];
      }
      const format = /^a=(?:rtpmap|fmtp|rtcp-fb):(\d+) /.exec(line)?.[1];
      return format === undefined || format === kept ? [line] : [];
    })
    .join(eol);
}

/**
 * The WHEP feed's ffmpeg arguments for H.264 as it is (after the input and before the audio): the access
 * units are copied, turned from the FLV's length-prefixed form into Annex B with the SPS and PPS before
 * every keyframe (a viewer starts decoding at one), and packetised by ffmpeg's RTP muxer (RFC 6184,
 * packetization mode 1: FU-A for large NAL units, STAP-A for the parameter sets).
 */
export function h264FeedArgs(rtpUrl: string): string[] {
  return [
    '-map',
    '0:v:0',
    '-c:v',
    'copy',
    '-bsf:v',
    'h264_mp4toannexb,dump_extra',
    '-payload_type',
    String(FEED_PAYLOAD_TYPE),
    '-f',
    'rtp',
    rtpUrl,
  ];
}

/** NAL unit types (H.264 7.4.1.2, RFC 6184 5.2). */
const NAL_SPS = 7;
const NAL_STAP_A = 24;

/**
 * Whether an RTP packet of H.264 starts a keyframe: it carries the SPS (alone or in a STAP-A), which the
 * feed's ffmpeg puts before every IDR picture: from there a decoder has everything it needs.
 */
export function startsH264Keyframe(packet: Buffer): boolean {
  if (packet.length < 13) return false;
  const csrcs = (packet[0] ?? 0) & 0x0f;
  let offset = 12 + csrcs * 4;
  if ((packet[0] ?? 0) & 0x10) {
    if (packet.length < offset + 4) return false;
    offset += 4 + packet.readUInt16BE(offset + 2) * 4;
  }
  const type = (packet[offset] ?? 0) & 0x1f;
  if (type === NAL_SPS) return true;
  if (type !== NAL_STAP_A) return false;
  // Each aggregated unit: a 16-bit size, then the unit; the walk ends with the packet (or a unit overrunning it).
  for (let unit = offset + 1; unit + 2 < packet.length; ) {
    const size = packet.readUInt16BE(unit);
    if (size === 0 || unit + 2 + size > packet.length) return false;
    if (((packet[unit + 2] ?? 0) & 0x1f) === NAL_SPS) return true;
    unit += 2 + size;
  }
  return false;
}
