import { z } from 'zod';

/**
 * What a recording or a relay takes from a stream: a source (the incoming stream or the transcoded
 * outgoing one) and track selectors. A selector picks tracks of one type by index, codec, resolution
 * and bitrate; a selector that constrains nothing picks every track of its type and reads 'All'.
 */

export const CAPTURE_VIDEO_CODECS = ['H264', 'VP8', 'VP9'] as const;
export const CAPTURE_AUDIO_CODECS = ['AAC', 'Opus', 'MP3'] as const;
export const TRACK_CODECS = [...CAPTURE_VIDEO_CODECS, ...CAPTURE_AUDIO_CODECS] as const;
export type TrackCodec = (typeof TRACK_CODECS)[number];

export const TRACK_TYPES = ['Video', 'Audio'] as const;
export type TrackType = (typeof TRACK_TYPES)[number];

export const CAPTURE_SOURCES = ['Incoming', 'Outgoing'] as const;
export type CaptureSource = (typeof CAPTURE_SOURCES)[number];

export const RESOLUTION_CONDITIONS = ['Exact', 'Approximate', 'Min', 'Max'] as const;
export type ResolutionCondition = (typeof RESOLUTION_CONDITIONS)[number];

export const BITRATE_CONDITIONS = ['Min', 'Max', 'Approximate', 'Greater', 'Less'] as const;
export type BitrateCondition = (typeof BITRATE_CONDITIONS)[number];

/** Dimensions and bitrates have a floor of 0 (section 5) and a sane ceiling. */
export const SELECTOR_DIMENSION_MAX = 65_535;
export const BITRATE_KBPS_MAX = 10_000_000;
export const TRACK_IDX_MAX = 1023;
export const CAPTURE_TRACKS_MAX = 32;

export const CAPTURE_MESSAGES = {
  codecType: (type: TrackType) =>
    type === 'Video' ? 'Codec must be a video codec (H264, VP8, VP9)' : 'Codec must be an audio codec (AAC, Opus, MP3)',
  resolutionAudio: 'Resolution applies only to video tracks',
  widthRequired: 'Width is required for an Exact or Approximate resolution',
  heightRequired: 'Height is required for an Exact or Approximate resolution',
  dimensionsTogether: 'Width and height must be given together',
  bitrateValue: 'Bitrate must be above 0 for an Approximate, Greater or Less condition',
  tracksRequired: 'Choose at least one track',
  tracksMax: `At most ${CAPTURE_TRACKS_MAX} tracks`,
} as const;

const wholeOrNull = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a number` })
    .int(`${label} must be a whole number`)
    .min(0, `${label} must be at least 0`)
    .max(max, `${label} must be at most ${max}`)
    .nullable();

export const CaptureSourceSchema = z.enum(CAPTURE_SOURCES, { error: 'Source must be Incoming or Outgoing' });
export const TrackTypeSchema = z.enum(TRACK_TYPES, { error: 'Type must be Video or Audio' });
export const TrackCodecSchema = z.enum(TRACK_CODECS, { error: 'Codec must be one of H264, VP8, VP9, AAC, Opus, MP3' });

export const ResolutionSelector = z.strictObject({
  width: wholeOrNull('Width', SELECTOR_DIMENSION_MAX).default(null),
  height: wholeOrNull('Height', SELECTOR_DIMENSION_MAX).default(null),
  condition: z.enum(RESOLUTION_CONDITIONS, { error: 'Resolution condition must be Exact, Approximate, Min or Max' }),
  /** Tolerance of an Approximate resolution, in percent. */
  approximate: z
    .number({ error: 'Tolerance must be a number' })
    .min(0, 'Tolerance must be at least 0')
    .max(100, 'Tolerance must be at most 100')
    .nullable()
    .default(null),
});
export type ResolutionSelector = z.output<typeof ResolutionSelector>;

export const BitrateSelector = z.strictObject({
  /** kbps. */
  value: z
    .number({ error: 'Bitrate must be a number' })
    .min(0, 'Bitrate must be at least 0')
    .max(BITRATE_KBPS_MAX, `Bitrate must be at most ${BITRATE_KBPS_MAX}`)
    .nullable()
    .default(null),
  condition: z.enum(BITRATE_CONDITIONS, { error: 'Bitrate condition must be Min, Max, Approximate, Greater or Less' }),
});
export type BitrateSelector = z.output<typeof BitrateSelector>;

/** A track selector as stored and answered: absent conditions are null. */
export interface TrackSelector {
  type: TrackType;
  idx: number | null;
  codec: TrackCodec | null;
  resolution: ResolutionSelector | null;
  bitrate: BitrateSelector | null;
}

export interface Capture {
  source: CaptureSource;
  tracks: TrackSelector[];
}

export interface SelectorIssue {
  path: (string | number)[];
  message: string;
}

const isVideoCodec = (codec: TrackCodec) => (CAPTURE_VIDEO_CODECS as readonly string[]).includes(codec);

/** The rules between a selector's fields (section 5); an empty list means the selector is valid. */
export function selectorIssues(selector: TrackSelector): SelectorIssue[] {
  const issues: SelectorIssue[] = [];
  if (selector.codec !== null && isVideoCodec(selector.codec) !== (selector.type === 'Video')) {
    issues.push({ path: ['codec'], message: CAPTURE_MESSAGES.codecType(selector.type) });
  }
  const { resolution, bitrate } = selector;
  if (resolution) {
    if (selector.type !== 'Video') {
      issues.push({ path: ['resolution'], message: CAPTURE_MESSAGES.resolutionAudio });
    } else if (resolution.condition === 'Exact' || resolution.condition === 'Approximate') {
      if (resolution.width === null)
        issues.push({ path: ['resolution', 'width'], message: CAPTURE_MESSAGES.widthRequired });
      if (resolution.height === null)
        issues.push({ path: ['resolution', 'height'], message: CAPTURE_MESSAGES.heightRequired });
    } else if ((resolution.width === null) !== (resolution.height === null)) {
      issues.push({
        path: ['resolution', resolution.width === null ? 'width' : 'height'],
        message: CAPTURE_MESSAGES.dimensionsTogether,
      });
    }
  }
  if (
    bitrate &&
    (bitrate.condition === 'Approximate' || bitrate.condition === 'Greater' || bitrate.condition === 'Less') &&
    !(bitrate.value !== null && bitrate.value > 0)
  ) {
    issues.push({ path: ['bitrate', 'value'], message: CAPTURE_MESSAGES.bitrateValue });
  }
  return issues;
}

/** Valid when every condition it sets is complete; one that sets none picks all tracks of its type. */
export function isSelectorValid(selector: TrackSelector): boolean {
  return selectorIssues(selector).length === 0;
}

/** Whether the selector narrows anything: an idx, a codec, a bitrate or (video) a resolution condition. */
export function selectorConstrains(selector: TrackSelector): boolean {
  return (
    selector.idx !== null ||
    selector.codec !== null ||
    selector.bitrate !== null ||
    (selector.type === 'Video' && selector.resolution !== null)
  );
}

function describeResolution({ width, height, condition, approximate }: ResolutionSelector): string {
  const size = width !== null && height !== null ? `${width}x${height}` : null;
  switch (condition) {
    case 'Exact':
      return size ?? 'exact resolution';
    case 'Approximate':
      return `about ${size ?? '?'}${approximate !== null ? ` (±${approximate}%)` : ''}`;
    case 'Min':
      return size ? `at least ${size}` : 'lowest resolution';
    case 'Max':
      return size ? `at most ${size}` : 'best resolution';
  }
}

function describeBitrate({ value, condition }: BitrateSelector): string {
  const kbps = value !== null ? `${value} kbps` : null;
  switch (condition) {
    case 'Min':
      return kbps ? `at least ${kbps}` : 'lowest bitrate';
    case 'Max':
      return kbps ? `at most ${kbps}` : 'highest bitrate';
    case 'Approximate':
      return `about ${kbps ?? '?'}`;
    case 'Greater':
      return `over ${kbps ?? '?'}`;
    case 'Less':
      return `under ${kbps ?? '?'}`;
  }
}

/** A selector in words: 'All' when it constrains nothing, else its conditions. */
export function describeSelector(selector: TrackSelector): string {
  if (!selectorConstrains(selector)) return 'All';
  const parts: string[] = [];
  if (selector.idx !== null) parts.push(`track #${selector.idx}`);
  if (selector.codec !== null) parts.push(selector.codec);
  if (selector.type === 'Video' && selector.resolution) parts.push(describeResolution(selector.resolution));
  if (selector.bitrate) parts.push(describeBitrate(selector.bitrate));
  return parts.join(', ');
}

export function emptySelector(type: TrackType): TrackSelector {
  return { type, idx: null, codec: null, resolution: null, bitrate: null };
}

export const CAPTURE_PRESETS = ['All', 'BestResolution', 'CurrentTracks'] as const;
export type CapturePreset = (typeof CAPTURE_PRESETS)[number];
export const CAPTURE_PRESET_LABELS: Record<CapturePreset, string> = {
  All: 'All',
  BestResolution: 'Best resolution',
  CurrentTracks: 'Current tracks',
};

/**
 * Section 4's presets: All (one video and one audio selector, no constraints); Best resolution (video
 * with condition Max, plus audio); Current tracks (one selector per existing track idx).
 */
export function capturePreset(
  preset: CapturePreset,
  currentTracks: readonly { idx: number; type: TrackType }[] = [],
): TrackSelector[] {
  switch (preset) {
    case 'All':
      return [emptySelector('Video'), emptySelector('Audio')];
    case 'BestResolution':
      return [
        { ...emptySelector('Video'), resolution: { width: null, height: null, condition: 'Max', approximate: null } },
        emptySelector('Audio'),
      ];
    case 'CurrentTracks': {
      const seen = new Set<number>();
      return currentTracks
        .filter((track) => !seen.has(track.idx) && seen.add(track.idx))
        .slice(0, CAPTURE_TRACKS_MAX)
        .map((track) => ({ ...emptySelector(track.type), idx: track.idx }));
    }
  }
}

/** Keeps the selectors whose codec (if any) is allowed; used when the file format changes. */
export function dropDisallowedCodecs(
  selectors: readonly TrackSelector[],
  allowed: readonly TrackCodec[],
): TrackSelector[] {
  return selectors.filter((selector) => selector.codec === null || allowed.includes(selector.codec));
}

/** A track selector in a request: conditions may be left out (null); the rules above are checked. */
export const TrackSelectorInput = z
  .strictObject({
    type: TrackTypeSchema,
    idx: wholeOrNull('Track index', TRACK_IDX_MAX).default(null),
    codec: TrackCodecSchema.nullable().default(null),
    resolution: ResolutionSelector.nullable().default(null),
    bitrate: BitrateSelector.nullable().default(null),
  })
  .superRefine((selector, context) => {
    for (const issue of selectorIssues(selector)) context.addIssue({ code: 'custom', ...issue });
  });

export const CaptureInput = z.strictObject({
  source: CaptureSourceSchema,
  tracks: z
    .array(TrackSelectorInput)
    .min(1, CAPTURE_MESSAGES.tracksRequired)
    .max(CAPTURE_TRACKS_MAX, CAPTURE_MESSAGES.tracksMax),
});
export type CaptureInput = z.input<typeof CaptureInput>;

/** The answered shape (no defaults, no rules: answers are encoded, not parsed). */
export const CaptureView = z.object({
  source: z.enum(CAPTURE_SOURCES),
  tracks: z.array(
    z.object({
      type: z.enum(TRACK_TYPES),
      idx: z.number().int().nullable(),
      codec: z.enum(TRACK_CODECS).nullable(),
      resolution: z
        .object({
          width: z.number().int().nullable(),
          height: z.number().int().nullable(),
          condition: z.enum(RESOLUTION_CONDITIONS),
          approximate: z.number().nullable(),
        })
        .nullable(),
      bitrate: z.object({ value: z.number().nullable(), condition: z.enum(BITRATE_CONDITIONS) }).nullable(),
    }),
  ),
});
