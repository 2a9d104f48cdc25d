import type { LadderRendition } from '@streamcloud/contract';
import type { AssignedStream } from '../../streams/directory.js';

/** The origin's HLS ladder an edge serves for the stream (its transcoder's renditions); null: none, or not an edge. */
export function edgeLadder(assigned: AssignedStream): LadderRendition[] | null {
  const renditions = assigned.origin?.renditions;
  return renditions && renditions.length > 0 ? renditions : null;
}

/** The nginx name of a rendition of the stream, here as on the origin. */
export const renditionName = (streamId: string, key: string) => `${streamId}_${key}`;
