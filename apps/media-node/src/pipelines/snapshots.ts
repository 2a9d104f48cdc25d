import type { SnapshotSettings } from '@streamcloud/contract';
import type { ControlPlaneClient } from '../control-plane.js';
import { snapshot } from '../probe.js';
import { newestFragment } from '../streams/fragments.js';
import type { LiveStream } from '../streams/types.js';
import type { Pipeline, PipelineContext, PipelineKind } from './pipeline.js';

type Direction = 'incoming' | 'outgoing';
export type SnapshotConfig = Record<Direction, SnapshotSettings | null>;

/** Until a direction's first image exists, it is tried again this often (the push's first fragment comes soon). */
const FIRST_RETRY_MS = 500;

/** Snapshots of a live stream per its settings: a pipeline that runs while at least one direction is on. */
export const snapshotsKind = ({
  client,
}: {
  client: Pick<ControlPlaneClient, 'snapshotSettings'>;
}): PipelineKind<SnapshotConfig> => ({
  name: 'snapshots',
  part: 'snapshots',
  whenNothing: 'skip',
  async load(assigned) {
    const settings = await client.snapshotSettings(assigned.id);
    return settings.incoming || settings.outgoing ? settings : null;
  },
  create: (context) => new Snapshots(context),
});

/**
 * Takes the images of each direction on its own interval: incoming from the push's newest fragment,
 * outgoing from what viewers get (the transcoder's top rendition when it runs, so its overlay shows).
 * Each direction is its own chain of timers (the next image is due an interval after the last one is
 * taken): both on the same interval take both, and a slow image never overlaps the next of its direction.
 */
class Snapshots implements Pipeline<SnapshotConfig> {
  private stream: LiveStream | null = null;
  private timers = new Set<NodeJS.Timeout>();
  /** Bumped by every new schedule: a chain of images from an older one ends. */
  private generation = 0;
  private stopped = false;

  constructor(private readonly context: PipelineContext) {}

  start(stream: LiveStream, config: SnapshotConfig): void {
    this.stream = stream;
    this.schedule(config);
  }

  update(config: SnapshotConfig): void {
    this.schedule(config);
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private clear(): void {
    this.generation++;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(config: SnapshotConfig): void {
    this.clear();
    for (const direction of ['incoming', 'outgoing'] as const) {
      const settings = config[direction];
      if (settings) this.next(direction, settings, 0, this.generation);
    }
  }

  private next(direction: Direction, settings: SnapshotSettings, delayMs: number, generation: number): void {
    const timer = setTimeout(async () => {
      this.timers.delete(timer);
      const taken = await this.take(direction, settings);
      if (this.stopped || generation !== this.generation) return;
      this.next(direction, settings, taken ? settings.interval * 1000 : FIRST_RETRY_MS, generation);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** One image of `direction`; answers whether there was a picture to take. */
  private async take(direction: Direction, settings: SnapshotSettings): Promise<boolean> {
    const stream = this.stream;
    if (!stream || this.stopped) return true;
    try {
      const { hlsDir } = this.context.tools;
      // While the transcoder's renditions start there is no outgoing picture yet (not the push's: it would lack the overlay).
      if (direction === 'outgoing' && stream.outgoing.renditions?.length === 0) return false;
      const source = direction === 'incoming' ? stream.source : stream.outgoing.main;
      const fragment = await newestFragment(hlsDir, source.hlsName, stream.startedAt.getTime());
      if (!fragment) return false;
      const image = await snapshot(this.context.tools.ffmpeg, fragment, settings);
      if (!this.stopped) {
        this.context.reporter.send({
          kind: 'snapshot',
          streamId: stream.assigned.id,
          direction,
          at: new Date().toISOString(),
          image: image.toString('base64'),
        });
      }
    } catch (error) {
      this.context.log.error(`snapshot of ${stream.assigned.name} failed: ${String(error)}`);
    }
    return true;
  }
}
