import type { NodeFallback as Fallback } from '@streamcloud/contract';
import type { ControlPlaneClient } from '../../control-plane.js';
import type { LiveStream } from '../../streams/types.js';
import type { Pipeline, PipelineKind } from '../pipeline.js';
import type { FallbackPlayer } from './player.js';

/**
 * Fallbacks: while a stream is live (a push, or a fallback playing), its fallbacks (`GET /node/inputs/
 * {id}/fallbacks`, read again when their version changes) are handed to the node's fallback player,
 * which prepares them and plays them when the push is gone (player.ts). The pipeline itself runs no
 * process: what plays outlives the push it stands in for.
 */
export const fallbacksKind = ({
  client,
  fallbacks: player,
}: {
  client: Pick<ControlPlaneClient, 'fallbacks'>;
  /** The node's fallback player. */
  fallbacks: FallbackPlayer;
}): PipelineKind<Fallback[]> => ({
  name: 'fallbacks',
  part: 'fallbacks',
  // A stream without fallbacks is not asked about, but its pipeline still runs: the player learns it has none.
  whenNothing: { config: [] },
  load: (assigned) => client.fallbacks(assigned.id),
  create: () => new FallbackConfig(player),
});

class FallbackConfig implements Pipeline<Fallback[]> {
  private stream: LiveStream | null = null;

  constructor(private readonly player: FallbackPlayer) {}

  start(stream: LiveStream, fallbacks: Fallback[]): void {
    this.stream = stream;
    this.player.configure(stream.assigned, fallbacks);
  }

  update(fallbacks: Fallback[]): void {
    if (this.stream) this.player.configure(this.stream.assigned, fallbacks);
  }

  stop(): void {
    // The player keeps what it prepared: the push that just ended is what it may stand in for.
  }

  describe(): Record<string, unknown> {
    return (this.stream && this.player.describe(this.stream.assigned.id)) ?? {};
  }
}
