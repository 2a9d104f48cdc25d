import type { StreamOutput } from '@streamcloud/contract';

/** Outputs the browser plays, the lowest latency first: WebRTC (WHEP), then HLS. */
const PLAYABLE = ['WebRTC', 'HLS'] as const;

/** What the Preview card's Output picker offers, its default first. */
export function playableOutputs(outputs: StreamOutput[]): StreamOutput[] {
  return outputs
    .filter((output) => (PLAYABLE as readonly string[]).includes(output.format) && output.connection)
    .sort((a, b) => PLAYABLE.indexOf(a.format as 'HLS') - PLAYABLE.indexOf(b.format as 'HLS'));
}
