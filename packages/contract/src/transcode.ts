import { z } from 'zod';
import { Id, IdParams } from './common.js';
import { maxDataUriLength, OVERLAY_IMAGE_LIMITS } from './image-probe.js';
import { defineRoute } from './routes.js';

/**
 * The transcode configuration (version 2) of an adjustable-transcode stream: the ladder of video and
 * audio tracks, the overlay logo, the ad-marker (SCTE-35) mode and the epoch time encoder. The editor's
 * forms and the server validate with these schemas, so both say the same thing.
 */
export const TRANSCODE_VERSION = 2;

export const SCTE35_MODES = ['None', 'Passthrough', 'SpliceMedia'] as const;
export const Scte35Mode = z.enum(SCTE35_MODES, { error: 'Ad-marker mode must be None, Passthrough or SpliceMedia' });
export type Scte35Mode = z.infer<typeof Scte35Mode>;

export const VIDEO_CODECS = ['H264', 'VP8', 'VP9'] as const;
export type VideoCodec = (typeof VIDEO_CODECS)[number];
/** The editor offers these; VP9 is in the wider list only. */
export const EDITOR_VIDEO_CODECS = ['H264', 'VP8'] as const satisfies readonly VideoCodec[];
export const AUDIO_CODECS = ['AAC', 'Opus', 'MP3'] as const;
export type AudioCodec = (typeof AUDIO_CODECS)[number];

export const H264_SPEED_PRESETS = [
  'ultrafast',
  'superfast',
  'veryfast',
  'faster',
  'fast',
  'medium',
  'slow',
  'slower',
  'veryslow',
  'placebo',
] as const;
export type H264SpeedPreset = (typeof H264_SPEED_PRESETS)[number];
/** The editor offers Ultrafast to Medium; the wider enumeration continues. */
export const EDITOR_H264_SPEED_PRESETS = H264_SPEED_PRESETS.slice(0, 6) as readonly H264SpeedPreset[];
export const H264_TUNES = ['none', 'stillimage', 'fastdecode', 'zerolatency'] as const;
export type H264Tune = (typeof H264_TUNES)[number];

/** Editor labels: Superfast, Zerolatency, … */
export const optionLabel = (value: string) => value.charAt(0).toUpperCase() + value.slice(1);

/** The limits of section 5 and 9, plus upper bounds the spec leaves open (see docs/decisions.md). */
export const TRACK_LIMITS = {
  dimensionMin: 0,
  dimensionMax: 8192,
  framerateMin: 1,
  framerateMax: 240,
  videoBitrateMin: 100,
  keyIntervalMin: 2,
  keyIntervalMax: 100_000,
  bitrateMax: 1_000_000,
  audioRateMin: 800,
  audioRateMax: 192_000,
  channelsMin: 1,
  channelsMax: 2,
  aacBitrateMin: 10,
  audioBitrateMin: 1,
  tracksMax: 32,
  offsetMax: 8192,
} as const;

const requiredNumber = (label: string) =>
  z.number({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? `${label} is required` : `${label} must be a number`,
  });

const wholeNumber = (label: string, min: number, max: number) =>
  requiredNumber(label)
    .int(`${label} must be a whole number`)
    .min(min, `${label} must be at least ${min}`)
    .max(max, `${label} must be at most ${max}`);

const dimension = (label: string) =>
  wholeNumber(label, TRACK_LIMITS.dimensionMin, TRACK_LIMITS.dimensionMax).optional();

/** 0 lets the encoder choose (the editor's default for a new track); otherwise at least 2. */
const keyInterval = (label: string) =>
  wholeNumber(label, 0, TRACK_LIMITS.keyIntervalMax).refine(
    (value) => value === 0 || value >= TRACK_LIMITS.keyIntervalMin,
    `${label} must be at least ${TRACK_LIMITS.keyIntervalMin} (or 0 to let the encoder choose)`,
  );

const videoBitrate = wholeNumber('Bitrate', TRACK_LIMITS.videoBitrateMin, TRACK_LIMITS.bitrateMax);

export const DIMENSIONS_PAIR_MESSAGE = 'Width and height must both be set or both be empty';

const videoBase = {
  width: dimension('Width'),
  height: dimension('Height'),
  framerate: requiredNumber('Frame rate')
    .min(TRACK_LIMITS.framerateMin, `Frame rate must be at least ${TRACK_LIMITS.framerateMin}`)
    .max(TRACK_LIMITS.framerateMax, `Frame rate must be at most ${TRACK_LIMITS.framerateMax}`),
};

function bothOrNeither(track: { width?: number | undefined; height?: number | undefined }, ctx: z.RefinementCtx) {
  if ((track.width === undefined) !== (track.height === undefined)) {
    ctx.addIssue({
      code: 'custom',
      path: [track.width === undefined ? 'width' : 'height'],
      message: DIMENSIONS_PAIR_MESSAGE,
    });
  }
}

export const H264Settings = z.strictObject({
  bitrate: videoBitrate,
  speedPreset: z.enum(H264_SPEED_PRESETS, { error: 'Speed preset is not one of the H264 speed presets' }),
  tune: z.enum(H264_TUNES, { error: 'Tune must be None, Stillimage, Fastdecode or Zerolatency' }),
  keyIntMax: keyInterval('Key interval'),
});
export type H264Settings = z.infer<typeof H264Settings>;

export const VpxSettings = z.strictObject({
  bitrate: videoBitrate,
  keyMaxDist: keyInterval('Key distance'),
});
export type VpxSettings = z.infer<typeof VpxSettings>;

export const H264Track = z
  .strictObject({ type: z.literal('H264'), ...videoBase, settings: H264Settings })
  .superRefine(bothOrNeither);
export const VP8Track = z
  .strictObject({ type: z.literal('VP8'), ...videoBase, settings: VpxSettings })
  .superRefine(bothOrNeither);
export const VP9Track = z
  .strictObject({ type: z.literal('VP9'), ...videoBase, settings: VpxSettings })
  .superRefine(bothOrNeither);

const audioTrack = <T extends AudioCodec>(type: T, bitrateMin: number) =>
  z.strictObject({
    type: z.literal(type),
    rate: wholeNumber('Rate', TRACK_LIMITS.audioRateMin, TRACK_LIMITS.audioRateMax),
    channels: wholeNumber('Channels', TRACK_LIMITS.channelsMin, TRACK_LIMITS.channelsMax),
    settings: z.strictObject({ bitrate: wholeNumber('Bitrate', bitrateMin, TRACK_LIMITS.bitrateMax) }),
  });

export const AACTrack = audioTrack('AAC', TRACK_LIMITS.aacBitrateMin);
export const OpusTrack = audioTrack('Opus', TRACK_LIMITS.audioBitrateMin);
export const MP3Track = audioTrack('MP3', TRACK_LIMITS.audioBitrateMin);

export const VideoTrack = z.discriminatedUnion('type', [H264Track, VP8Track, VP9Track]);
export type VideoTrack = z.infer<typeof VideoTrack>;
export const AudioTrack = z.discriminatedUnion('type', [AACTrack, OpusTrack, MP3Track]);
export type AudioTrack = z.infer<typeof AudioTrack>;

export const TranscodeTrack = z.discriminatedUnion(
  'type',
  [H264Track, VP8Track, VP9Track, AACTrack, OpusTrack, MP3Track],
  { error: 'Track type must be H264, VP8, VP9, AAC, Opus or MP3' },
);
export type TranscodeTrack = z.infer<typeof TranscodeTrack>;

export const isVideoTrack = (track: TranscodeTrack): track is VideoTrack =>
  (VIDEO_CODECS as readonly string[]).includes(track.type);

export const TranscodeTracks = z
  .array(TranscodeTrack)
  .max(TRACK_LIMITS.tracksMax, `At most ${TRACK_LIMITS.tracksMax} tracks`);

const offset = (label: string) => wholeNumber(label, 0, TRACK_LIMITS.offsetMax);

/**
 * The overlay logo: a PNG or JPEG data URI and where it goes. The image itself is checked by its
 * bytes (type, size, dimensions) with `checkImage(bytes, OVERLAY_IMAGE_LIMITS)`, by the editor and
 * by the server.
 */
export const Overlay = z.strictObject({
  data: z
    .string({ error: 'Overlay data is required' })
    .startsWith('data:', 'Overlay data must be a data URI')
    .max(maxDataUriLength(OVERLAY_IMAGE_LIMITS.maxBytes), OVERLAY_IMAGE_LIMITS.messages.size),
  offsetX: offset('Offset X'),
  offsetY: offset('Offset Y'),
});
export type Overlay = z.infer<typeof Overlay>;

export const Scte35Settings = z.strictObject({ mode: Scte35Mode });
export const EpochTimeEncoder = z.strictObject({ enabled: z.boolean({ error: 'enabled must be true or false' }) });

/** The configuration as GET /inputs/{id}/output answers it (and the editor holds it). */
export const TranscodeConfig = z.object({
  version: z.literal(TRANSCODE_VERSION),
  passthrough: z.boolean(),
  scte35: z.object({ mode: Scte35Mode }),
  epochTimeEncoder: z.object({ enabled: z.boolean() }),
  overlay: Overlay.nullable(),
  tracks: z.array(TranscodeTrack),
});
export type TranscodeConfig = z.infer<typeof TranscodeConfig>;

/**
 * PUT /inputs/{id}/output. The legacy ad-marker flag (`adMarker: true`) maps to mode Passthrough when
 * no mode is given; without either the mode is None.
 */
export const TranscodeConfigUpdate = z
  .strictObject({
    version: z.literal(TRANSCODE_VERSION, { error: 'version must be 2' }).default(TRANSCODE_VERSION),
    passthrough: z.boolean({ error: 'passthrough must be true or false' }).default(false),
    scte35: z.strictObject({ mode: Scte35Mode.optional() }).optional(),
    /** Legacy: true is mode Passthrough when no mode is given. */
    adMarker: z.boolean({ error: 'adMarker must be true or false' }).optional(),
    epochTimeEncoder: EpochTimeEncoder.default({ enabled: false }),
    overlay: Overlay.nullable().default(null),
    tracks: TranscodeTracks,
  })
  .transform(({ adMarker, scte35, ...config }) => ({
    ...config,
    scte35: { mode: scte35?.mode ?? (adMarker ? 'Passthrough' : 'None') } as { mode: Scte35Mode },
  }));
export type TranscodeConfigUpdate = z.output<typeof TranscodeConfigUpdate>;
export type TranscodeConfigUpdateInput = z.input<typeof TranscodeConfigUpdate>;

/** Presets of section 9 (all 30 fps; bitrates in kbps). */
export const VIDEO_PRESET_SIZES = [
  { name: '1080p', width: 1920, height: 1080, bitrate: 4000 },
  { name: '720p', width: 1280, height: 720, bitrate: 2000 },
  { name: '480p', width: 854, height: 480, bitrate: 1200 },
  { name: '360p', width: 640, height: 360, bitrate: 800 },
  { name: '240p', width: 426, height: 240, bitrate: 500 },
] as const;
export const PRESET_FRAMERATE = 30;
export const PRESET_KEY_INTERVAL = 60;

export interface TrackPreset<T extends TranscodeTrack = TranscodeTrack> {
  /** 'H264 720p', 'AAC 48 kHz' … */
  label: string;
  track: T;
}

export function videoPreset(codec: 'H264' | 'VP8', size: (typeof VIDEO_PRESET_SIZES)[number]): VideoTrack {
  const base = { width: size.width, height: size.height, framerate: PRESET_FRAMERATE };
  return codec === 'H264'
    ? {
        type: 'H264',
        ...base,
        settings: {
          bitrate: size.bitrate,
          speedPreset: 'superfast',
          tune: 'zerolatency',
          keyIntMax: PRESET_KEY_INTERVAL,
        },
      }
    : { type: 'VP8', ...base, settings: { bitrate: size.bitrate, keyMaxDist: PRESET_KEY_INTERVAL } };
}

export const VIDEO_PRESETS: readonly TrackPreset<VideoTrack>[] = EDITOR_VIDEO_CODECS.flatMap((codec) =>
  VIDEO_PRESET_SIZES.map((size) => ({ label: `${codec} ${size.name}`, track: videoPreset(codec, size) })),
);

export const AUDIO_PRESETS: readonly TrackPreset<AudioTrack>[] = [
  { label: 'AAC 48 kHz', track: { type: 'AAC', rate: 48_000, channels: 2, settings: { bitrate: 128 } } },
  { label: 'Opus 48 kHz', track: { type: 'Opus', rate: 48_000, channels: 2, settings: { bitrate: 128 } } },
];

/** A new video track in the editor: H264, bitrate 2000, Superfast, Zerolatency, key interval 0. */
export const NEW_VIDEO_TRACK: VideoTrack = {
  type: 'H264',
  framerate: PRESET_FRAMERATE,
  settings: { bitrate: 2000, speedPreset: 'superfast', tune: 'zerolatency', keyIntMax: 0 },
};
/** What a video track's settings become when its codec changes to VP8 or VP9. */
export const NEW_VPX_SETTINGS: VpxSettings = { bitrate: 2000, keyMaxDist: 0 };
/** A new audio track in the editor: AAC, 48000 Hz, 2 channels, 128 kbps. */
export const NEW_AUDIO_TRACK: AudioTrack = { type: 'AAC', rate: 48_000, channels: 2, settings: { bitrate: 128 } };

/** Bits per second in base-10 units: 950 bps, 128 kbps, 2.5 mbps, 1 gbps. */
export function formatBitrate(bps: number): string {
  const units = ['bps', 'kbps', 'mbps', 'gbps'] as const;
  let value = bps;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const rounded = Math.round(value * 100) / 100;
  return `${rounded} ${units[unit]}`;
}

export interface TrackInfoLike {
  type: 'Video' | 'Audio';
  codec: string;
  width: number | null;
  height: number | null;
  bps: number | null;
  channels: number | null;
}

/**
 * A reported track as one line: codec, size (video) or channels (audio), and bitrate — e.g.
 * 'H264, 1280x720, 2 mbps' or 'AAC, 2 channels, 128 kbps'. Unknown parts are left out.
 */
export function describeTrack(track: TrackInfoLike): string {
  const parts: string[] = [track.codec];
  if (track.type === 'Video') {
    if (track.width !== null && track.height !== null) parts.push(`${track.width}x${track.height}`);
  } else if (track.channels !== null) {
    parts.push(`${track.channels} ${track.channels === 1 ? 'channel' : 'channels'}`);
  }
  if (track.bps !== null) parts.push(formatBitrate(track.bps));
  return parts.join(', ');
}

/** Bodies carrying the overlay are larger than the API's default limit (1 MiB). */
export const TRANSCODE_BODY_LIMIT = 2 * 1024 * 1024;

export const transcodeRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/inputs/:id/output',
    summary: "A stream's transcode configuration (version 2): tracks, overlay, ad-marker mode, time encoder",
    tag: 'transcoding',
    auth: 'user',
    params: IdParams,
    response: TranscodeConfig,
    errors: [404],
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/inputs/:id/output',
    summary:
      'Save the transcode configuration. 409 while the stream is in Ingestion or when it is not ' +
      'adjustable-transcode; the overlay image is checked by its bytes (PNG/JPEG, 1 MB, 360x360)',
    tag: 'transcoding',
    auth: 'user',
    params: IdParams,
    body: TranscodeConfigUpdate,
    response: TranscodeConfig,
    errors: [404, 409, 413],
  }),
};

export const nodeTranscodeRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/node/inputs/:id/output',
    summary: 'The transcode configuration of an input the calling node serves (404 for any other)',
    tag: 'node-facing',
    auth: 'node',
    params: z.strictObject({ id: Id }),
    response: TranscodeConfig,
    errors: [404],
  }),
};
