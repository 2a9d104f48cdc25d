import { rename, rm, stat } from 'node:fs/promises';
import type { RecordingFileFormat } from '@streamcloud/contract';
import { type GuardedChild, lastLine, runTool, spawnGuarded } from '../../child.js';
import { playProbeUs } from '../../front-ends/rtmp/nginx.js';
import type { Logger } from '../../log.js';
import type { LiveStream, MediaTrackSource } from '../../streams/types.js';
import { type CaptureCandidate, type CaptureOrigin, captureInputArgs } from '../capture.js';
import { type SupervisedRun, Supervisor } from '../supervisor.js';

/** What the reader sent before the file's tracks were known is kept up to this much (the newest). */
const PENDING_MAX_BYTES = 32 * 1024 * 1024;
/** A writer that does not end within this long after its input ended is stopped. */
const WRITER_DRAIN_MS = 10_000;
/** A reader whose push ended is given this long to send what it holds (nginx ends it with the push). */
const READER_DRAIN_MS = 3000;

export interface FileCaptureOptions {
  ffmpeg: string;
  ffprobe: string;
  /** The node's internal RTMP URL of an nginx-rtmp stream name. */
  rtmpUrl(name: string): string;
  file: string;
  format: RecordingFileFormat;
  log: Logger;
  /** The capture cannot go on (the reader gave up, or the writer failed): its file holds what came so far. */
  onFailure(message: string, what: 'read' | 'write'): void;
}

/** ffmpeg's output options per file format: written in pieces, so a file cut short anywhere still plays. */
const FORMAT_ARGS: Record<RecordingFileFormat, string[]> = {
  // Fragmented MP4: a fragment at every keyframe and at least every second (audio-only files have none).
  MP4: ['-f', 'mp4', '-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '1000000'],
  // Matroska in clusters of at most a second.
  MKV: ['-f', 'matroska', '-cluster_time_limit', '1000'],
};

/**
 * One file being recorded from nginx-rtmp: a reader (ffmpeg playing the origins live, every track, as
 * MPEG-TS on its stdout) feeds a writer (ffmpeg remuxing the selected tracks into the file). The reader
 * comes and goes with the push — a push that resumes within the reconnect grace gets a new reader into the
 * same writer, and MPEG-TS lets the writer join the two timelines — while the writer lives as long as the
 * file. The reader starts with the push; what it sends before the push's tracks are probed (and so before
 * the writer knows which to take) waits in memory, so the file starts with the push.
 */
export class FileCapture {
  /** Seconds written, from the writer's progress. */
  duration = 0;
  /** Keeps the reader of the current push running (a new one for each push). */
  private reader: Supervisor | null = null;
  private readerProcess: GuardedChild | null = null;
  private writer: GuardedChild | null = null;
  private writerLog = '';
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private finished = false;

  constructor(private readonly o: FileCaptureOptions) {}

  /** Reads the origins of a live push (again, after a reconnect) into the file. */
  read(stream: LiveStream, origins: MediaTrackSource[]): void {
    if (this.finished) return;
    const previous = this.pause();
    const reader = new Supervisor({
      run: () => this.startReader(stream, origins),
      onGiveUp: (failure) => this.o.onFailure(`reading the stream failed: ${failure}`, 'read'),
    });
    this.reader = reader;
    // One reader at a time into the writer: the next starts once the previous one is over.
    void previous.then(() => {
      if (this.reader === reader) reader.start();
    });
  }

  /**
   * Starts the writer for the selected tracks, given where the reader finds them: `origins` in the
   * reader's order, each with its probed tracks (the reader sends each origin's video, then its audio).
   */
  write(selection: CaptureCandidate[], origins: readonly CaptureOrigin[]): void {
    if (this.finished || this.writer) return;
    const writer = spawnGuarded(this.o.ffmpeg, writerArgs(selection, origins, this.o.format, this.o.file), {
      extraPipe: true,
    });
    this.writer = writer;
    writer.stderr.on('data', (chunk: Buffer) => {
      this.writerLog = (this.writerLog + chunk.toString()).slice(-4000);
    });
    writer.stdout.on('data', (chunk: Buffer) => this.progress(chunk.toString()));
    void writer.exited.then((code) => {
      const failure = `writing the file failed: ${lastLine(this.writerLog) || `ffmpeg exited with ${code}`}`;
      if (!this.finished) this.o.onFailure(failure, 'write');
      else if (code !== 0) this.o.log.error(`${this.o.file}: ${failure}`);
    });
    for (const chunk of this.pending.splice(0)) writer.extra?.write(chunk);
    this.pendingBytes = 0;
  }

  /** The push ended: the reader sends what it holds and stops; the writer waits for the next push. */
  pause(): Promise<void> {
    const reader = this.reader;
    this.reader = null;
    return reader ? this.drain(reader) : Promise.resolve();
  }

  /** Ends the file: the reader stops, the writer drains what it was given and closes the file. */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    await this.pause();
    const writer = this.writer;
    if (!writer) return;
    writer.extra?.end();
    await Promise.race([writer.exited, new Promise((resolve) => setTimeout(resolve, WRITER_DRAIN_MS))]);
    await writer.stop();
  }

  /** Bytes in the file now. */
  async length(): Promise<number> {
    return stat(this.o.file).then(
      (info) => info.size,
      () => 0,
    );
  }

  /** Waits a moment for the reader's process to end by itself (its push ended), then stops it. */
  private async drain(reader: Supervisor): Promise<void> {
    const process = this.readerProcess;
    if (process) await Promise.race([process.exited, new Promise((resolve) => setTimeout(resolve, READER_DRAIN_MS))]);
    await reader.stop();
  }

  private startReader(stream: LiveStream, origins: MediaTrackSource[]): SupervisedRun {
    // The push ended before a restart: nothing to read until the next push (which gets a reader of its own).
    if (stream.ended || this.finished) return { ended: new Promise(() => {}), stop: async () => {} };
    const maps = origins.flatMap((_, input) => ['-map', `${input}:v?`, '-map', `${input}:a?`]);
    const reader = spawnGuarded(this.o.ffmpeg, [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      ...captureInputArgs(origins, this.o.rtmpUrl, stream),
      ...maps,
      '-c',
      'copy',
      '-f',
      'mpegts',
      'pipe:1',
    ]);
    this.readerProcess = reader;
    let log = '';
    reader.stderr.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    reader.stdout.on('data', (chunk: Buffer) => this.take(chunk, reader));
    let bytes = 0;
    reader.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    return {
      ended: reader.exited.then((code) => {
        if (this.readerProcess === reader) this.readerProcess = null;
        this.o.log.debug(`${this.o.file}: the reader of ${stream.assigned.name} ended (${code}) after ${bytes} bytes`);
        // nginx ends its players when the push ends: that is no failure.
        if (code === 0 || stream.ended) return null;
        return lastLine(log) || `ffmpeg exited with ${code}`;
      }),
      stop: () => reader.stop(),
    };
  }

  /** What the reader sent: into the writer, or kept until it starts. */
  private take(chunk: Buffer, reader: GuardedChild): void {
    const input = this.writer?.extra;
    if (input) {
      if (!input.write(chunk)) {
        reader.stdout.pause();
        input.once('drain', () => reader.stdout.resume());
      }
      return;
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    while (this.pendingBytes > PENDING_MAX_BYTES && this.pending.length > 1)
      this.pendingBytes -= this.pending.shift()?.length ?? 0;
  }

  private progress(text: string): void {
    for (const match of text.matchAll(/^out_time_us=(\d+)$/gm)) this.duration = Number(match[1]) / 1e6;
  }
}

/**
 * The writer's arguments: MPEG-TS from fd 3; each selected track is picked by its type and its place among
 * the tracks of that type the reader sends (the origins' tracks before its own, then its place in its
 * origin); AAC from MPEG-TS needs its headers rewritten for MP4 and Matroska.
 */
export function writerArgs(
  selection: readonly CaptureCandidate[],
  origins: readonly CaptureOrigin[],
  format: RecordingFileFormat,
  file: string,
): string[] {
  const before = (candidate: CaptureCandidate) => {
    let count = 0;
    for (const origin of origins) {
      if (origin.source === candidate.origin) break;
      count += origin.tracks.filter((track) => track.type === candidate.track.type).length;
    }
    return count + candidate.nth;
  };
  const maps = selection.flatMap((candidate) => [
    '-map',
    `0:${candidate.track.type === 'Video' ? 'v' : 'a'}:${before(candidate)}`,
  ]);
  const filters = selection.flatMap((candidate, index) =>
    candidate.track.codec === 'AAC' ? [`-bsf:${index}`, 'aac_adtstoasc'] : [],
  );
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-progress',
    'pipe:1',
    '-stats_period',
    '1',
    // As long as the reader's own probe (playProbeUs): the reader passes on what nginx sent it, audio first, up
    // to a GOP of it before the video's first keyframe; a short probe saw no video packet, and MP4 refused a
    // video track without its dimensions (the file stayed empty).
    '-analyzeduration',
    String(playProbeUs(origins.flatMap((origin) => origin.tracks))),
    '-f',
    'mpegts',
    '-i',
    'pipe:3',
    ...maps,
    '-c',
    'copy',
    ...filters,
    ...FORMAT_ARGS[format],
    '-flush_packets',
    '1',
    '-y',
    file,
  ];
}

/** The file's duration in seconds as ffprobe reads it; null when it cannot tell. */
export async function probeDuration(ffprobe: string, file: string): Promise<number | null> {
  try {
    const out = await runTool(
      ffprobe,
      ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', file],
      30_000,
    );
    const seconds = Number.parseFloat(out.toString().trim());
    return Number.isFinite(seconds) ? seconds : null;
  } catch {
    return null;
  }
}

/**
 * A file whose writer was killed (the node died) is remuxed as it is: Matroska gets its duration and
 * index, a fragmented MP4 loses a fragment cut in the middle. Answers false when the file cannot be read.
 */
export async function repairFile(ffmpeg: string, file: string, format: RecordingFileFormat): Promise<boolean> {
  const repaired = `${file}.repaired`;
  try {
    await runTool(
      ffmpeg,
      [
        '-hide_banner',
        '-nostdin',
        '-loglevel',
        'error',
        '-i',
        file,
        '-map',
        '0',
        '-c',
        'copy',
        ...FORMAT_ARGS[format],
        '-y',
        repaired,
      ],
      300_000,
    );
    await rename(repaired, file);
    return true;
  } catch {
    await rm(repaired, { force: true });
    return false;
  }
}
