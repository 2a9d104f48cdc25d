import type { TrackInfo } from '@streamcloud/contract';
import type { Logger } from '../log.js';
import { probeFragment, trackInfos, videoCodingOf } from '../probe.js';
import type { StreamListener } from './events.js';
import { newestFragment, poll } from './fragments.js';
import type { LiveStream } from './types.js';

/**
 * Probes run at once. A fragment of H.264 and AAC is read in the node in a few milliseconds, but one it does not read
 * goes to ffprobe, ~0.1 s of a core (most of it the process starting): a wave of such pushes probing together (200 at
 * once: ~20 core-seconds) would starve the pushes, nginx and the node's own loop, and probes would time out; in
 * turn, the wave's tracks arrive a few seconds apart instead (issue 39).
 */
export const PROBES_AT_ONCE = 2;

/**
 * The push's tracks: when its first HLS fragment exists, the newest one is probed (probeFragment, PROBES_AT_ONCE at a time)
 * and they are reported as the incoming tracks, and as the outgoing ones too unless a transcoder runs (it reports
 * its own).
 */
export class IncomingTracks implements StreamListener {
  private probing = 0;
  private readonly waiting: Array<() => void> = [];

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
      // The newest fragment when its turn comes: the first one may have left the playlist meanwhile.
      const probed = await this.inTurn(async () =>
        stream.ended
          ? null
          : probeFragment(
              this.o.ffprobe,
              (await newestFragment(this.o.hlsDir, hlsName, stream.startedAt.getTime())) ?? fragment,
            ),
      );
      if (!probed) return;
      const tracks = trackInfos(probed);
      stream.source.coding = videoCodingOf(probed);
      stream.tracks = tracks;
      if (!stream.ended)
        this.o.report(stream, stream.transcoding ? { incoming: tracks } : { incoming: tracks, outgoing: tracks });
    } catch (error) {
      this.o.log.error(`probing ${stream.assigned.name} failed: ${String(error)}`);
    }
  }

  /** Runs `probe` once fewer than PROBES_AT_ONCE run, in the order asked. */
  private async inTurn<T>(probe: () => Promise<T>): Promise<T> {
    while (this.probing >= PROBES_AT_ONCE) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.probing++;
    try {
      return await probe();
    } finally {
      this.probing--;
      this.waiting.shift()?.();
    }
  }
}
