import type {
  BitrateSelector,
  CaptureSource,
  ResolutionSelector,
  TrackCodec,
  TrackInfo,
  TrackSelector,
  TrackType,
} from '@streamcloud/contract';
import { playInputArgs } from '../front-ends/rtmp/nginx.js';
import { probeFragment, trackInfos } from '../probe.js';
import { newestFragment, poll } from '../streams/fragments.js';
import type { LiveStream, MediaTrackSource, Rendition } from '../streams/types.js';

/**
 * What a capture (a recording's or a relay's) takes from a live stream: its selectors picked against the
 * tracks of the source (Incoming: the push; Outgoing: the transcoder's renditions), and the ffmpeg inputs
 * and `-map`s that read those tracks from nginx-rtmp. Pure, but for `sourceOrigins`, which waits for a
 * live stream's tracks to be probed; the caller runs ffmpeg.
 *
 * How a selector picks (docs/decisions.md, "Capture selection"): of the tracks of its type, those with
 * its idx and codec; then its resolution condition, then its bitrate condition:
 * - Exact: that size. Greater / Less: every track over / under the bitrate.
 * - Min / Max: the lowest / highest (pixels, or bits per second) of the tracks at least / at most the
 *   given value, or of all when none is given — one track (or the ones tied with it).
 * - Approximate: the nearest within the tolerance (resolution: `approximate` %, 10 % when not given, on
 *   each side; bitrate: 20 %, since a measured bitrate wavers from second to second).
 * A track whose size or bitrate is unknown never meets a condition on it. A capture takes the union of
 * its selectors' tracks, in selector order, each track once.
 */

/** Tolerance of an Approximate resolution without one, in percent. */
export const RESOLUTION_TOLERANCE_PERCENT = 10;
/** Tolerance of an Approximate bitrate, in percent. */
export const BITRATE_TOLERANCE_PERCENT = 20;

/** Where the tracks of a source are read from: one nginx-rtmp stream and the tracks it carries, as probed. */
export interface CaptureOrigin {
  source: MediaTrackSource;
  tracks: readonly TrackInfo[];
}

/** A track a capture may take. */
export interface CaptureCandidate {
  /** As probed, with `idx` the number selectors name: its place in the source's list of tracks. */
  track: TrackInfo;
  /** The origin that carries it and its place among that origin's tracks of its type (ffmpeg's `v:N`/`a:N`). */
  origin: MediaTrackSource;
  nth: number;
}

/**
 * The candidates of a source from its origins: the push is one origin (its tracks keep their probed
 * idx); the renditions of a transcoder are several, numbered on across them in the order given.
 */
export function captureCandidates(origins: readonly CaptureOrigin[]): CaptureCandidate[] {
  const candidates: CaptureCandidate[] = [];
  for (const { source, tracks } of origins) {
    const seen: Record<TrackType, number> = { Video: 0, Audio: 0 };
    for (const track of tracks) {
      candidates.push({
        track: origins.length === 1 ? track : { ...track, idx: candidates.length },
        origin: source,
        nth: seen[track.type]++,
      });
    }
  }
  return candidates;
}

export interface CaptureSelection {
  /** The tracks taken, in the order they go into the output. */
  tracks: CaptureCandidate[];
  /** Positions of the selectors that matched no track (for a warning). */
  unmatched: number[];
}

/** The tracks a capture's selectors take from the candidates. */
export function selectTracks(
  selectors: readonly TrackSelector[],
  candidates: readonly CaptureCandidate[],
): CaptureSelection {
  const tracks: CaptureCandidate[] = [];
  const unmatched: number[] = [];
  selectors.forEach((selector, position) => {
    const picked = pick(selector, candidates);
    if (picked.length === 0) unmatched.push(position);
    for (const candidate of picked) if (!tracks.includes(candidate)) tracks.push(candidate);
  });
  return { tracks, unmatched };
}

/** The tracks of a selection whose codec `allowed` does not hold (e.g. Opus for an MP4 file). */
export function disallowedTracks(
  selection: readonly CaptureCandidate[],
  allowed: readonly TrackCodec[],
): CaptureCandidate[] {
  return selection.filter((candidate) => !(allowed as readonly string[]).includes(candidate.track.codec));
}

/** The origins a selection reads, each once, in the order of their first track: ffmpeg's inputs 0, 1, … */
export function captureOrigins(selection: readonly CaptureCandidate[]): MediaTrackSource[] {
  const origins: MediaTrackSource[] = [];
  for (const { origin } of selection) if (!origins.includes(origin)) origins.push(origin);
  return origins;
}

/**
 * ffmpeg input arguments playing each origin live from nginx-rtmp (`urlOf` gives the node's internal URL), each
 * probed as long as its tracks ask (playInputArgs): those of `stream` it carries, looked up when the player starts.
 */
export function captureInputArgs(
  origins: readonly MediaTrackSource[],
  urlOf: (rtmpName: string) => string,
  stream: Pick<LiveStream, 'source' | 'tracks'>,
): string[] {
  return origins.flatMap((origin) => playInputArgs(urlOf(origin.rtmpName), tracksOf(stream, origin)));
}

/** The tracks `origin` carries as probed: a rendition's own, the push's once probed; null when not known. */
export function tracksOf(
  stream: Pick<LiveStream, 'source' | 'tracks'>,
  origin: MediaTrackSource,
): readonly TrackInfo[] | null {
  if ('tracks' in origin) return (origin as Rendition).tracks;
  return origin === stream.source ? stream.tracks : null;
}

/** One `-map` per selected track, into the inputs `captureInputArgs` made of `captureOrigins(selection)`. */
export function captureMapArgs(selection: readonly CaptureCandidate[]): string[] {
  const origins = captureOrigins(selection);
  return selection.flatMap((candidate) => [
    '-map',
    `${origins.indexOf(candidate.origin)}:${candidate.track.type === 'Video' ? 'v' : 'a'}:${candidate.nth}`,
  ]);
}

/**
 * Where a live stream's source is read from, once its tracks are known: Incoming is the push with its
 * probed tracks; Outgoing is the transcoder's renditions (each probed from its first HLS fragment) while a
 * ladder runs, else what viewers get, the push. Null when `going()` stops holding first.
 */
export async function sourceOrigins(
  stream: LiveStream,
  source: CaptureSource,
  o: { hlsDir: string; ffprobe: string; going(): boolean },
): Promise<CaptureOrigin[] | null> {
  const tracks = await poll(async () => stream.tracks, o.going);
  if (!tracks) return null;
  if (source === 'Outgoing' && !(await renditionsReady(stream, o.going))) return null;
  const renditions = stream.outgoing.renditions;
  if (source === 'Incoming' || !renditions) return [{ source: stream.source, tracks }];
  const origins: CaptureOrigin[] = [];
  for (const rendition of renditions) {
    const fragment = await poll(() => newestFragment(o.hlsDir, rendition.hlsName, stream.startedAt.getTime()), o.going);
    if (!fragment) return null;
    origins.push({ source: rendition, tracks: trackInfos(await probeFragment(o.ffprobe, fragment)) });
  }
  return origins;
}

/**
 * Whether an Outgoing capture must wait: an adjustable-transcode stream's outgoing tracks are its
 * renditions, known once its push is probed and its ladder (if it has one) has a fragment of each. Until
 * then the push is not what its viewers will get. Without a ladder (none configured, or the transcoder
 * gave up) the renditions stay null and the push is the outgoing source.
 */
export function awaitingRenditions(stream: LiveStream): boolean {
  if (stream.assigned.outputMode !== 'AdjustableTranscode') return false;
  return stream.tracks === null || stream.outgoing.renditions?.length === 0;
}

/** How long a viewer joining a starting ladder waits for its top rendition before it gets the push. */
export const RENDITIONS_WAIT_MS = 10_000;

/**
 * Waits, while `going()` holds, until the stream's outgoing source is what its viewers will get (see
 * awaitingRenditions); true once it is.
 */
export async function renditionsReady(stream: LiveStream, going: () => boolean): Promise<boolean> {
  return (await poll(async () => !awaitingRenditions(stream) || null, going)) !== null;
}

/** The source's words in messages: 'the push' or 'the transcoded renditions'. */
export function describeSource(source: CaptureSource): string {
  return source === 'Incoming' ? 'the push' : 'the transcoded renditions';
}

// ------------------------------------------------------------------ one selector

function pick(selector: TrackSelector, candidates: readonly CaptureCandidate[]): CaptureCandidate[] {
  let found = candidates.filter(
    ({ track }) =>
      track.type === selector.type &&
      (selector.idx === null || track.idx === selector.idx) &&
      (selector.codec === null || track.codec === selector.codec),
  );
  if (selector.type === 'Video' && selector.resolution) found = byResolution(found, selector.resolution);
  if (selector.bitrate) found = byBitrate(found, selector.bitrate);
  return found;
}

const pixels = ({ track }: CaptureCandidate) => (track.width ?? 0) * (track.height ?? 0);
const sized = (candidate: CaptureCandidate) => candidate.track.width !== null && candidate.track.height !== null;

function byResolution(candidates: CaptureCandidate[], resolution: ResolutionSelector): CaptureCandidate[] {
  const known = candidates.filter(sized);
  const size = (candidate: CaptureCandidate) => ({
    w: candidate.track.width as number,
    h: candidate.track.height as number,
  });
  const { width, height, condition } = resolution;
  const given = width !== null && height !== null ? { width, height } : null;
  switch (condition) {
    case 'Exact':
      return known.filter(({ track }) => given && track.width === given.width && track.height === given.height);
    case 'Approximate': {
      if (!given) return [];
      const tolerance = (resolution.approximate ?? RESOLUTION_TOLERANCE_PERCENT) / 100;
      const off = (candidate: CaptureCandidate) => {
        const { w, h } = size(candidate);
        return Math.max(relative(w, given.width), relative(h, given.height));
      };
      return extreme(
        known.filter((candidate) => off(candidate) <= tolerance),
        off,
        'lowest',
      );
    }
    case 'Min':
      return extreme(
        known.filter((candidate) => !given || (size(candidate).w >= given.width && size(candidate).h >= given.height)),
        pixels,
        'lowest',
      );
    case 'Max':
      return extreme(
        known.filter((candidate) => !given || (size(candidate).w <= given.width && size(candidate).h <= given.height)),
        pixels,
        'highest',
      );
  }
}

function byBitrate(candidates: CaptureCandidate[], bitrate: BitrateSelector): CaptureCandidate[] {
  const known = candidates.filter((candidate) => candidate.track.bps !== null);
  const bps = (candidate: CaptureCandidate) => candidate.track.bps as number;
  const value = bitrate.value === null ? null : bitrate.value * 1000;
  switch (bitrate.condition) {
    case 'Greater':
      return value === null ? [] : known.filter((candidate) => bps(candidate) > value);
    case 'Less':
      return value === null ? [] : known.filter((candidate) => bps(candidate) < value);
    case 'Approximate':
      if (value === null || value <= 0) return [];
      return extreme(
        known.filter((candidate) => relative(bps(candidate), value) <= BITRATE_TOLERANCE_PERCENT / 100),
        (candidate) => relative(bps(candidate), value),
        'lowest',
      );
    case 'Min':
      return extreme(value === null ? known : known.filter((candidate) => bps(candidate) >= value), bps, 'lowest');
    case 'Max':
      return extreme(value === null ? known : known.filter((candidate) => bps(candidate) <= value), bps, 'highest');
  }
}

/** How far `actual` is from `wanted`, as a share of `wanted`. */
const relative = (actual: number, wanted: number) =>
  wanted === 0 ? (actual === 0 ? 0 : Number.POSITIVE_INFINITY) : Math.abs(actual - wanted) / wanted;

/** The candidates with the lowest or highest `measure` (ties kept). */
function extreme(
  candidates: CaptureCandidate[],
  measure: (candidate: CaptureCandidate) => number,
  which: 'lowest' | 'highest',
): CaptureCandidate[] {
  if (candidates.length === 0) return [];
  const values = candidates.map(measure);
  const best = which === 'lowest' ? Math.min(...values) : Math.max(...values);
  return candidates.filter((_, index) => values[index] === best);
}
