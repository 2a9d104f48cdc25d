import type { TrackInfo } from '@streamcloud/contract';
import type { Logger } from '../log.js';
import { probeTracks } from '../probe.js';
import type { StreamListener } from './events.js';
import { newestFragment, poll } from './fragments.js';
import type { LiveStream } from './types.js';

/**
 * The push's tracks: when its first HLS fragment exists, ffprobe reads it and they are reported as the
 * incoming tracks, and as the outgoing ones too unless a transcoder runs (it reports its own).
 */
export class IncomingTracks implements StreamListener {
  constructor(
    private readonly o: {
      hlsDir: string;
      ffprobe: string;
      log: Logger;
      report: (stream: LiveStream, tracks: { incoming?: TrackInfo[]; outgoing?: TrackInfo[] }) => void;
    },
  ) {}

  live(stream: LiveStream): void {
    void this.watch(stream);
  }

  private async watch(stream: LiveStream): Promise<void> {
    const fragment = await poll(
      () => newestFragment(this.o.hlsDir, stream.source.hlsName, stream.startedAt.getTime()),
      () => !stream.ended,
    );
    if (!fragment) return;
    stream.firstFragmentAt = Date.now();
    try {
      const tracks = await probeTracks(this.o.ffprobe, fragment);
      stream.tracks = tracks;
      if (!stream.ended)
        this.o.report(stream, stream.transcoding ? { incoming: tracks } : { incoming: tracks, outgoing: tracks });
    } catch (error) {
      this.o.log.error(`probing ${stream.input.name} failed: ${String(error)}`);
    }
  }
}
