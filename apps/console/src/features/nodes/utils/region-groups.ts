import { compareRegionCodes, type Node, type RegionCode } from '@streamcloud/contract';

export const REGION_NAMES: Record<RegionCode, string> = {
  EU: 'Europe',
  NA: 'North America',
  SA: 'South America',
  AS: 'Asia',
  AF: 'Africa',
  AN: 'Antarctica',
  OC: 'Oceania',
};

export const NO_REGION = 'No region';

export interface RegionGroup {
  /** The region code in capitals, or null for nodes without one. */
  code: string | null;
  title: string;
  nodes: Node[];
}

export function regionTitle(code: string | null): string {
  if (!code) return NO_REGION;
  const name = REGION_NAMES[code as RegionCode];
  return name ? `${name} (${code})` : code;
}

/**
 * Nodes by their location code: EU, NA, SA, AS, AF, AN, OC, then other codes alphabetically, then
 * nodes without a code. Codes compare without regard to case; nodes keep their order in each group.
 */
export function groupNodesByRegion(nodes: readonly Node[]): RegionGroup[] {
  const groups = new Map<string | null, Node[]>();
  for (const node of nodes) {
    const code = node.location.code?.trim().toUpperCase() || null;
    const list = groups.get(code) ?? [];
    list.push(node);
    groups.set(code, list);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => compareRegionCodes(a, b))
    .map(([code, list]) => ({ code, title: regionTitle(code), nodes: list }));
}
