import type { AssignedInput, LadderRendition } from '@streamcloud/contract';

/** The origin's HLS ladder an edge serves for the input (its transcoder's renditions); null: none, or not an edge. */
export function edgeLadder(input: AssignedInput): LadderRendition[] | null {
  const renditions = input.origin?.renditions;
  return renditions && renditions.length > 0 ? renditions : null;
}

/** The nginx name of a rendition of the input, here as on the origin. */
export const renditionName = (streamId: string, key: string) => `${streamId}_${key}`;
