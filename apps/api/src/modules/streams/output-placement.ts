import { type GroupedNode, type PlacementGroup, reservedForOthers } from './ingest-placement.js';
import { candidateOf, chooseNode, type PlacedNodeRow, type StreamerPlace } from './node-assignment.js';

/** Only Outgoing groups move viewers off the ingest node (Common nodes serve the viewers of what they ingest). */
const servesEdges = (group: PlacementGroup) => group.assignment === 'Outgoing';

/**
 * The nodes a new viewer output of `ownerId`'s stream may be served by, best tier only: the nodes of the
 * owner's own Outgoing groups; else those of the streaming cloud's Outgoing groups (never a node another
 * customer's group reserves); else none, and the ingest node serves it.
 */
export function edgeCandidates<T extends GroupedNode>(nodes: readonly T[], ownerId: string): T[] {
  const own = nodes.filter((node) => node.groups.some((group) => group.owner_id === ownerId && servesEdges(group)));
  if (own.length > 0) return own;
  return nodes.filter(
    (node) =>
      !reservedForOthers(node, ownerId) && node.groups.some((group) => group.owner_id === null && servesEdges(group)),
  );
}

/**
 * The edge node a viewer output is assigned to, or null for the stream's ingest node: among the edge candidates
 * (enabled, opened), the nearest to the viewer when its place is known (`chooseNode`'s rules), else by region
 * order and fewer streams. The ingest node itself, when chosen, is null (the output follows the stream) with
 * `ingestChosen` (it stays there); null for the lack of any candidate is not (it goes to an edge as soon as its
 * owner may use one: `outputs.ingest_chosen`).
 */
export function placeOutput<T extends GroupedNode & PlacedNodeRow>(
  nodes: readonly T[],
  ownerId: string,
  ingestNodeId: string | null,
  viewer: StreamerPlace,
): { node: T | null; ingestChosen: boolean } {
  const candidates = edgeCandidates(nodes, ownerId);
  const chosen = chooseNode(
    candidates.map((node) => candidateOf(node)),
    viewer,
  );
  if (!chosen) return { node: null, ingestChosen: false };
  if (chosen.id === ingestNodeId) return { node: null, ingestChosen: true };
  return { node: candidates.find((node) => node.id === chosen.id) ?? null, ingestChosen: false };
}
