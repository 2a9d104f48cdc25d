import type { TrackInfo } from '@streamcloud/contract';
import type { SupervisedRun } from '../../pipelines/supervisor.js';
import { AUDIO, playRtmp, VIDEO } from '../../rtmp-play/play-client.js';
import { PART_SECONDS } from '../packagers.js';
import { FlvFmp4Remuxer } from '../remux/flv-fmp4.js';

/** The remuxer's clock across a variant's runs: each run starts past where the last one ended. */
export interface RemuxClock {
  nextStartMs: number;
}

/**
 * The packager's input for an H.264/AAC variant, without a process of its own: the node plays it from nginx-rtmp
 * (rtmp-play/) and remuxes its FLV messages into the fragmented MP4 ffmpeg would write (ll-hls/remux/), each
 * fragment into `write`. A codec the remuxer does not take, bytes it cannot read or `write` throwing fail the run.
 */
export function rtmpInput(
  url: string,
  tracks: readonly TrackInfo[],
  clock: RemuxClock,
  write: (chunk: Buffer) => void,
): SupervisedRun {
  const remuxer = new FlvFmp4Remuxer({
    video: tracks.some((track) => track.type === 'Video'),
    audio: tracks.some((track) => track.type === 'Audio'),
    // As ffmpeg's -frag_duration in fmp4OutputArgs: a little short of the part target.
    fragmentMs: Math.floor(PART_SECONDS * 0.9 * 1000),
    startMs: clock.nextStartMs,
    emit: write,
  });
  const play = playRtmp(url, ({ type, timestamp, payload }) => {
    if (type === AUDIO) remuxer.pushAudio(timestamp, payload);
    else if (type === VIDEO) remuxer.pushVideo(timestamp, payload);
  });
  return {
    ended: play.ended.then((failure) => {
      clock.nextStartMs = remuxer.nextStartMs();
      // A play that ended cleanly leaves its last fragment, as ffmpeg writes its own at the end of its input.
      if (failure === null) {
        try {
          remuxer.end();
        } catch {
          // The packager refused it: the run ended anyway.
        }
      }
      return failure;
    }),
    stop: () => play.stop(),
  };
}
