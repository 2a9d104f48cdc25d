/** What a packager keeps of a stream: its segments and their parts, and what it hands on. */

/** What a clip is cut from: runs of one period each (an init, then segments), the first starting at `startMs`. */
export interface ClipSource {
  /** The program date of the first segment's first frame (a keyframe), ms. */
  startMs: number;
  /** The clip's media seconds: from that keyframe to `to`, the periods' runs one after the other. */
  seconds: number;
  runs: { period: number; chunks: Buffer[] }[];
}

/** The numbering a packager's successor for the same URL goes on with: players see one playlist continued. */
export interface Continuation {
  msn: number;
  period: number;
  discontinuities: number;
}

export interface Part {
  data: Buffer;
  duration: number;
  independent: boolean;
}

export interface Segment {
  msn: number;
  period: number;
  /** The first of its period: a discontinuity before it (unless it is the playlist's very first). */
  periodStart: boolean;
  programDate: number;
  parts: Part[];
  duration: number;
  complete: boolean;
  bytes: number;
  /** On the rewind window's disk: its parts may leave memory. */
  stored: boolean;
}
