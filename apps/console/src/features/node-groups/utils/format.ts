import type {
  NodeGroup,
  NodeGroupAssignment,
  ScalingEvent,
  ScalingRule,
  ScalingRuleDraft,
} from '@streamcloud/contract';
import { NODE_GROUP_ASSIGNMENTS } from '@streamcloud/contract';
import { BITS_PER_MEGABIT, formatBitrate } from '@/lib/format';

export const CONDITION_LABELS = {
  CPUGroupAvg: 'CPU group average',
  BWGroupAvg: 'Bandwidth group average',
  GroupFull: 'Group full',
} as const;

export const ASSIGNMENT_BADGES: Record<NodeGroupAssignment, string> = {
  Common: 'secondary',
  Ingestion: 'primary',
  Outgoing: 'info',
};

/** "CPU group average > 80% for 60 s → Increase by 1 through AWS", as the Scaling card lists rules. */
export function describeRule(rule: ScalingRule): string {
  const { condition, action } = rule;
  const when =
    condition.type === 'GroupFull'
      ? `${CONDITION_LABELS.GroupFull}${condition.settings.comparison === 'Less' ? ' (not)' : ''}`
      : `${CONDITION_LABELS[condition.type]} ${condition.settings.comparison === 'More' ? '>' : '<'} ${condition.settings.value}%`;
  const what =
    action.type === 'Increase'
      ? `Increase by ${action.settings.amount} through ${action.settings.provider}`
      : `Reduce by ${action.settings.amount}`;
  return `${when} for ${condition.settings.duration} s → ${what}`;
}

/** The details under a rule: bandwidth of new nodes, provider value, timeout. */
export function describeRuleDetails(rule: ScalingRule): string {
  const parts = [
    `node bandwidth ${formatBitrate(rule.action.settings.bandwidthLimitMbps * BITS_PER_MEGABIT)}`,
    ...(rule.action.settings.value ? [`value ${rule.action.settings.value}`] : []),
    `timeout ${rule.actionTimeout} s`,
  ];
  return parts.join(' · ');
}

/** A rule as the form and the PUT body take it. */
export function ruleToDraft(rule: ScalingRule): ScalingRuleDraft {
  return {
    enabled: rule.enabled,
    actionTimeout: rule.actionTimeout,
    condition: { type: rule.condition.type, settings: { ...rule.condition.settings } },
    action: { type: rule.action.type, settings: { ...rule.action.settings } },
  };
}

const byAssignmentThenName = (a: NodeGroup, b: NodeGroup) =>
  NODE_GROUP_ASSIGNMENTS.indexOf(a.assignment) - NODE_GROUP_ASSIGNMENTS.indexOf(b.assignment) ||
  a.name.localeCompare(b.name, undefined, { sensitivity: 'base' });

/** A USER's flat list: by assignment (Common, Ingestion, Outgoing), then name. */
export function sortGroups(groups: NodeGroup[]): NodeGroup[] {
  return [...groups].sort(byAssignmentThenName);
}

export interface OwnerBlock {
  owner: { id: string; username: string };
  groups: NodeGroup[];
}

/** An ADMIN's list: the streaming cloud's own groups, then one block per owner, owners by username. */
export function groupByOwner(groups: NodeGroup[]): { cloud: NodeGroup[]; customers: OwnerBlock[] } {
  const cloud: NodeGroup[] = [];
  const owners = new Map<string, OwnerBlock>();
  for (const group of groups) {
    if (!group.ownerId) {
      cloud.push(group);
      continue;
    }
    const owner = group.owner ?? { id: group.ownerId, username: group.ownerId };
    const block = owners.get(owner.id) ?? { owner, groups: [] };
    block.groups.push(group);
    owners.set(owner.id, block);
  }
  return {
    cloud: sortGroups(cloud),
    customers: [...owners.values()]
      .sort((a, b) => a.owner.username.localeCompare(b.owner.username, undefined, { sensitivity: 'base' }))
      .map((block) => ({ ...block, groups: sortGroups(block.groups) })),
  };
}

export function formatEventTime(event: ScalingEvent): string {
  return new Date(event.at).toLocaleString();
}
