import {
  type StreamInput,
  type TranscodeConfig,
  TranscodeConfigUpdate,
  type TranscodeConfigUpdateInput,
} from '@streamcloud/contract';

/** Structural equality of JSON-like values, whatever the order of object keys. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  const defined = (value: object) => Object.entries(value).filter(([, item]) => item !== undefined);
  const left = defined(a);
  const right = new Map(defined(b));
  return left.length === right.size && left.every(([key, item]) => right.has(key) && sameValue(item, right.get(key)));
}

/** What the editor saves: the configuration as held, never passthrough (section 3). */
export function toBody(config: TranscodeConfig): TranscodeConfigUpdateInput {
  return {
    version: 2,
    passthrough: false,
    scte35: { mode: config.scte35.mode },
    epochTimeEncoder: { enabled: config.epochTimeEncoder.enabled },
    overlay: config.overlay,
    tracks: config.tracks,
  };
}

/** The server's rules, run on what would be saved; the first problem, or null when it can be saved. */
export function firstProblem(config: TranscodeConfig): string | null {
  const result = TranscodeConfigUpdate.safeParse(toBody(config));
  return result.success ? null : (result.error.issues[0]?.message ?? 'Invalid configuration');
}

export const PASSTHROUGH_NOTICE = 'This stream is passthrough: it has no transcoding ladder.';
export const INGESTION_NOTICE = 'The transcoding cannot be changed while the stream is in Ingestion.';

/** Section 4: the editor works only on adjustable-transcode streams that are not in Ingestion. */
export function lockedReason(stream: Pick<StreamInput, 'status' | 'outputMode'> | undefined): string | null {
  if (!stream) return null;
  if (stream.outputMode !== 'AdjustableTranscode') return PASSTHROUGH_NOTICE;
  if (stream.status === 'Ingestion') return INGESTION_NOTICE;
  return null;
}
