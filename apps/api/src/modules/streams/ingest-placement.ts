import type { NodeGroupAssignment } from '@streamcloud/contract';

/** A node group a node belongs to, as placement weighs it: whose it is and what it is for. */
export interface PlacementGroup {
  /** Null: the streaming cloud's own group. */
  owner_id: string | null;
  assignment: NodeGroupAssignment;
}

export interface GroupedNode {
  groups: PlacementGroup[];
}

/** Whether the group takes pushes: Ingestion groups do, Common groups do both jobs, Outgoing ones serve viewers. */
const takesIngest = (group: PlacementGroup) => group.assignment !== 'Outgoing';

/** Whether the node is reserved by a customer's group other than this owner's: it serves nobody else. */
export const reservedForOthers = (node: GroupedNode, ownerId: string) =>
  node.groups.some((group) => group.owner_id !== null && group.owner_id !== ownerId);

/**
 * The nodes a new stream of `ownerId` may go to, best tier only (the caller then picks by place and load):
 * 1. nodes of the owner's own Ingestion (or Common) groups: the customer's streams prefer its nodes;
 * 2. the shared pool: nodes in no group, and nodes of the streaming cloud's Ingestion or Common groups;
 * 3. as a last resort, nodes kept for viewers only (Outgoing groups of the cloud or of the owner).
 * A node in another customer's group is never a candidate: a customer-owned group's nodes take only that
 * customer's streams (even when the node is also in one of the cloud's groups).
 */
export function ingestCandidates<T extends GroupedNode>(nodes: readonly T[], ownerId: string): T[] {
  const tiers: [T[], T[], T[]] = [[], [], []];
  for (const node of nodes) {
    if (reservedForOthers(node, ownerId)) continue;
    if (node.groups.some((group) => group.owner_id === ownerId && takesIngest(group))) tiers[0].push(node);
    else if (node.groups.length === 0 || node.groups.some(takesIngest)) tiers[1].push(node);
    else tiers[2].push(node);
  }
  return tiers.find((tier) => tier.length > 0) ?? [];
}
