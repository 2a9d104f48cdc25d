import type { Readable } from 'node:stream';
import type { TrackInfo } from '@streamcloud/contract';
import { type GuardedChild, lastLine, spawnGuarded } from '../../child.js';

/**
 * Why a relay's run ended. `source`: the stream's media could not be read (not published into nginx yet,
 * or it ended); `target`: the destination failed, worth retrying; `fatal`: no retry can mend it (the
 * destination refused the stream or its key, the host does not exist, the settings cannot work).
 */
export class RelayFailure extends Error {
  constructor(
    message: string,
    readonly kind: 'source' | 'target' | 'fatal',
  ) {
    super(message);
  }
}

/** Any error as a failure of the run (an unexpected one is worth retrying). */
export const asFailure = (error: unknown): RelayFailure =>
  error instanceof RelayFailure
    ? error
    : new RelayFailure(error instanceof Error ? error.message : String(error), 'target');

/** What a run reads: the ffmpeg inputs (streams in nginx-rtmp) and the captured tracks. */
export interface RelaySource {
  ffmpeg: string;
  /** ffmpeg's input arguments, e.g. `-rtmp_live live -i rtmp://…`. */
  inputArgs: string[];
  /** The captured tracks: which of the source's tracks go to the destination, in order. */
  tracks: CapturedTrack[];
  /** Positions of the capture's selectors that matched no track. */
  unmatched: number[];
  /** Tracks the capture takes that the destination cannot carry (left out). */
  dropped: number;
}

/** One captured track: its type, its ffmpeg stream specifier, and what ffprobe knows of it. */
export interface CapturedTrack {
  type: 'Video' | 'Audio';
  /** `0:v:0`; `0:v?` (every track of the type, if any) while the push's tracks are not probed yet. */
  map: string;
  info: TrackInfo | null;
}

/** One connection of a relay to its destination, carrying one ffmpeg run. */
export interface TargetRun {
  /** Resolves once: null when the source ended (the push is over), else why the run failed. */
  readonly ended: Promise<RelayFailure | null>;
  /** Bytes sent to the destination (what is billed) and received from it, over the run. */
  bytesOut(): number;
  bytesIn(): number;
  /** Disconnects now (letting the destination see a clean end within a moment); resolves when all is closed. */
  stop(): Promise<void>;
}

/** Where a relay sends: RTMP(S), CMAF ingest or UDP MPEG-TS. */
export interface RelayTarget {
  /** What the messages call it: `rtmp://host/app`, `udp://192.0.2.1:5000`… (never a secret). */
  readonly label: string;
  /** Whether it needs the source's tracks probed before a run (one output per track, codec checks). */
  readonly needsTracks: boolean;
  /** How many tracks of each type it carries (RTMP, FLV: one video and one audio); absent: any. */
  readonly perType?: number;
  /** One run; `flowing` is called once media reaches the destination. */
  run(source: RelaySource, flowing: () => void): TargetRun;
}

/** The tool's stderr kept for a failure's message, with secrets blotted out. */
export class ToolLog {
  private text = '';

  constructor(private readonly secrets: string[] = []) {}

  add(chunk: Buffer): void {
    this.text = (this.text + chunk.toString()).slice(-4000);
  }

  last(): string {
    let line = lastLine(this.text);
    for (const secret of this.secrets) if (secret) line = line.split(secret).join('***');
    return line;
  }
}

/**
 * ffmpeg reading the source and writing the captured tracks without re-encoding (unless `codecArgs`
 * says otherwise) to what `outputArgs` names: its own pipes (`pipe:1`, `pipe:3`…) or a loopback URL.
 */
export function relayFfmpeg(
  source: RelaySource,
  outputArgs: string[],
  o: { extraPipes?: number; secrets?: string[] } = {},
): { child: GuardedChild; log: ToolLog } {
  const log = new ToolLog(o.secrets);
  const child = spawnGuarded(
    source.ffmpeg,
    ['-hide_banner', '-nostdin', '-loglevel', 'error', ...source.inputArgs, ...outputArgs],
    { extraPipes: o.extraPipes },
  );
  child.stderr.on('data', (chunk: Buffer) => log.add(chunk));
  child.stdout.on('error', () => undefined);
  return { child, log };
}

/** Resolves once a stream has given all it will (ended, closed or failed). */
export function drained(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    stream.once('end', resolve).once('close', resolve).once('error', resolve);
  });
}

/** The maps of a single output carrying every captured track, copied. */
export const copyTracks = (tracks: CapturedTrack[]): string[] => [
  ...tracks.flatMap((track) => ['-map', track.map]),
  '-c',
  'copy',
];

/**
 * The failure of a run whose ffmpeg ended: before any output, the stream's media could not be read;
 * after, the source ended (a clean end: the push is over) unless ffmpeg says what went wrong.
 */
export function ffmpegEnded(code: number | null, log: ToolLog, outputStarted: boolean): RelayFailure | null {
  if (!outputStarted)
    return new RelayFailure(
      `the stream's media could not be read (${log.last() || `ffmpeg exited with ${code}`})`,
      'source',
    );
  if (code === 0) return null;
  const line = log.last();
  // ffmpeg's live RTMP input ends with an I/O error when the publisher goes: the source ended.
  if (!line || /Input\/output error|End of file/i.test(line)) return null;
  return new RelayFailure(`ffmpeg failed: ${line}`, 'target');
}
