import { initFile, partFile, segmentFile } from './files.js';
/** A segment as the playlist lists it. */
export interface PlaylistSegment {
  msn: number;
  period: number;
  /** The first segment of its period: a discontinuity and its period's init segment before it. */
  discontinuity: boolean;
  /** When its first part arrived, ms since the epoch. */
  programDate: number;
  duration: number;
  complete: boolean;
  parts: { duration: number; independent: boolean }[];
}

/** Where a ladder's sibling variant is (EXT-X-RENDITION-REPORT): its playlist, and its last segment and part. */
export interface RenditionReport {
  uri: string;
  lastMsn: number;
  lastPart: number;
}

export interface PlaylistInput {
  segments: readonly PlaylistSegment[];
  partTarget: number;
  discontinuitySequence: number;
  ended: boolean;
  /** A delta update: the oldest segments beyond CAN-SKIP-UNTIL are replaced by EXT-X-SKIP. */
  skip: boolean;
  uri: (file: string) => string;
  renditionReports: readonly RenditionReport[];
  /**
   * A VOD of an ended push (vod/): EXT-X-PLAYLIST-TYPE:VOD, complete segments only, no low-latency tags (no parts,
   * blocking reload or skipping: the playlist never changes).
   */
  vod?: boolean;
}

/** Parts are listed for the segments within this many target durations of the playlist's end (Apple's LL-HLS). */
const PART_LISTED_TARGETS = 3;
/** CAN-SKIP-UNTIL, in target durations (at least six, RFC 8216bis 4.4.3.8). */
const SKIP_TARGETS = 6;
/** PART-HOLD-BACK, in part targets (at least two; three as Apple recommends). */
const HOLD_BACK_PARTS = 3;

const decimal = (value: number) => String(Number(value.toFixed(5)));

/** An LL-HLS media playlist (RFC 8216bis with Apple's low-latency extensions) of the packager's segments. */
export function renderPlaylist(input: PlaylistInput): string {
  const { segments, partTarget, uri } = input;
  // Each segment's duration, rounded to the nearest integer, is at most the target (RFC 8216bis 4.4.3.1).
  const target = Math.max(1, ...segments.map((segment) => Math.round(segment.duration)));
  const canSkipUntil = SKIP_TARGETS * target;
  const lines = ['#EXTM3U', '#EXT-X-VERSION:9', `#EXT-X-TARGETDURATION:${target}`];
  if (input.vod) lines.push('#EXT-X-PLAYLIST-TYPE:VOD');
  else
    lines.push(
      `#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=${decimal(HOLD_BACK_PARTS * partTarget)},CAN-SKIP-UNTIL=${decimal(canSkipUntil)}`,
      `#EXT-X-PART-INF:PART-TARGET=${decimal(partTarget)}`,
    );
  lines.push(`#EXT-X-MEDIA-SEQUENCE:${segments[0]?.msn ?? 0}`);
  if (input.discontinuitySequence > 0) lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${input.discontinuitySequence}`);
  const total = segments.reduce((sum, segment) => sum + segment.duration, 0);
  const skipped = input.skip ? skippable(segments, total - canSkipUntil) : 0;
  if (skipped > 0) lines.push(`#EXT-X-SKIP:SKIPPED-SEGMENTS=${skipped}`);
  let elapsed = segments.slice(0, skipped).reduce((sum, segment) => sum + segment.duration, 0);
  for (const [index, segment] of segments.entries()) {
    if (index < skipped) continue;
    const first = index === skipped;
    if (segment.discontinuity && index > 0) lines.push('#EXT-X-DISCONTINUITY');
    if (first || segment.discontinuity) lines.push(`#EXT-X-MAP:URI="${uri(initFile(segment.period))}"`);
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(segment.programDate).toISOString()}`);
    elapsed += segment.duration;
    if (!segment.complete || total - elapsed < PART_LISTED_TARGETS * target) {
      for (const [i, part] of segment.parts.entries()) {
        const independent = part.independent ? ',INDEPENDENT=YES' : '';
        lines.push(
          `#EXT-X-PART:DURATION=${decimal(part.duration)},URI="${uri(partFile(segment.msn, i))}"${independent}`,
        );
      }
    }
    if (segment.complete) lines.push(`#EXTINF:${decimal(segment.duration)},`, uri(segmentFile(segment.msn)));
  }
  const last = segments.at(-1);
  if (input.ended) lines.push('#EXT-X-ENDLIST');
  else if (last) {
    const next = last.complete ? partFile(last.msn + 1, 0) : partFile(last.msn, last.parts.length);
    lines.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="${uri(next)}"`);
  }
  for (const report of input.renditionReports)
    lines.push(`#EXT-X-RENDITION-REPORT:URI="${report.uri}",LAST-MSN=${report.lastMsn},LAST-PART=${report.lastPart}`);
  return `${lines.join('\n')}\n`;
}

/**
 * How many of the oldest segments a delta update leaves out: the complete ones that end before `until` (seconds
 * from the playlist's start), stopping before a discontinuity (its init segment must stay listed).
 */
function skippable(segments: readonly PlaylistSegment[], until: number): number {
  let end = 0;
  let count = 0;
  for (const [index, segment] of segments.entries()) {
    end += segment.duration;
    if (!segment.complete || end > until || (index > 0 && segment.discontinuity)) break;
    count++;
  }
  return count;
}
