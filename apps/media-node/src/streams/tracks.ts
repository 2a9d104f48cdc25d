import type { TrackInfo } from '@streamcloud/contract';
import type { Logger } from '../log.js';
import { probeMedia, trackInfos, videoCodingOf } from '../probe.js';
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
      /** The push's first fragment exists: media arrived. */
      firstFragment?: (stream: LiveStream) => void;
    },
  ) {}

  live(stream: LiveStream): void {
    void this.watch(stream);
  }

  private async watch(stream: LiveStream): Promise<void> {
    const { hlsName } = stream.source;
    // The playlist goes on across publishers (a fallback, a push resuming): the newest fragment when this
    // one starts is the last of the one before, closed a moment ago, not this one's.
    const before = await newestFragment(this.o.hlsDir, hlsName, stream.startedAt.getTime());
    const fragment = await poll(
      async () => {
        const newest = await newestFragment(this.o.hlsDir, hlsName, stream.startedAt.getTime());
        return newest === before ? null : newest;
      },
      () => !stream.ended,
    );
    if (!fragment) return;
    stream.firstFragmentAt = Date.now();
    this.o.firstFragment?.(stream);
    try {
      const probed = await probeMedia(this.o.ffprobe, fragment);
      const tracks = trackInfos(probed);
      stream.source.coding = videoCodingOf(probed);
      stream.tracks = tracks;
      if (!stream.ended)
        this.o.report(stream, stream.transcoding ? { incoming: tracks } : { incoming: tracks, outgoing: tracks });
    } catch (error) {
      this.o.log.error(`probing ${stream.assigned.name} failed: ${String(error)}`);
    }
  }
}
