import type { TrackInfo } from '@streamcloud/contract';
import { lastLine, spawnGuarded } from '../../child.js';
import { playInputArgs } from '../../front-ends/rtmp/nginx.js';
import type { SupervisedRun } from '../../pipelines/supervisor.js';
import { fmp4OutputArgs } from '../files.js';
import { PART_SECONDS } from '../packagers.js';

/**
 * The packager's input for a variant the in-process remuxer does not take (MP3, other codecs): an ffmpeg plays it
 * from nginx-rtmp and writes it, copied, as fragmented MP4 to its stdout, each chunk into `write` (which throws on
 * bytes the packager refuses: the run then fails).
 */
export function ffmpegInput(
  ffmpegPath: string,
  url: string,
  tracks: readonly TrackInfo[] | null,
  write: (chunk: Buffer) => void,
): SupervisedRun {
  const ffmpeg = spawnGuarded(ffmpegPath, [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    // Probed until the video came (nginx sends audio first: playInputArgs).
    ...playInputArgs(url, tracks),
    '-map',
    '0:v?',
    '-map',
    '0:a?',
    ...fmp4OutputArgs(PART_SECONDS),
  ]);
  let stderr = '';
  let refused: string | null = null;
  ffmpeg.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  ffmpeg.stdout.on('data', (chunk: Buffer) => {
    if (refused) return;
    try {
      write(chunk);
    } catch (error) {
      refused = String(error);
      void ffmpeg.stop();
    }
  });
  return {
    ended: ffmpeg.exited.then(
      (code) => refused ?? (code === 0 ? null : lastLine(stderr) || `ffmpeg exited with ${code}`),
    ),
    stop: () => ffmpeg.stop(),
  };
}
