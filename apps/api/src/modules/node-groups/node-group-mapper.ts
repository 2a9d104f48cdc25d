import type { NodeGroup, NodeGroupResource, ScalingEvent, ScalingRule } from '@streamcloud/contract';
import { toNode } from '../nodes/index.js';
import type {
  NodeGroupRow,
  NodeGroupsRepository,
  ResourceRow,
  ScalingEventRow,
  ScalingRuleRow,
} from './node-groups.repository.js';

export function toScalingRule(row: ScalingRuleRow): ScalingRule {
  return {
    id: row.id,
    enabled: row.enabled,
    actionTimeout: row.action_timeout,
    condition: {
      type: row.condition_type,
      settings: { type: row.settings_type, comparison: row.comparison, value: row.value, duration: row.duration },
    },
    action: {
      type: row.action_type,
      settings: {
        provider: row.provider,
        value: row.provider_value,
        bandwidthLimitMbps: row.bandwidth_limit_mbps,
        amount: row.amount,
      },
    },
    lastActionAt: row.last_action_at ? row.last_action_at.toISOString() : null,
  };
}

export function toScalingEvent(row: ScalingEventRow): ScalingEvent {
  return {
    id: row.id,
    at: row.at.toISOString(),
    type: row.type,
    ruleId: row.rule_id,
    action: row.action,
    provider: row.provider,
    success: row.success,
    message: row.message,
    details: (row.details as Record<string, unknown> | null) ?? null,
  };
}

const RESOURCE_ORDER = { Persistent: 0, Allocated: 1 } as const;

/** Groups as the API answers them, with their rules and their nodes (and the nodes' latest load). */
export async function presentGroups(repository: NodeGroupsRepository, rows: NodeGroupRow[]): Promise<NodeGroup[]> {
  const ids = rows.map((row) => row.id);
  const [rules, resources] = await Promise.all([repository.rulesOf(ids), repository.resourcesOf(ids)]);
  const loads = await repository.latestLoads([...new Set(resources.map(({ node }) => node.id))]);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    assignment: row.assignment,
    ownerId: row.owner_id,
    owner: row.owner_id && row.owner_username ? { id: row.owner_id, username: row.owner_username } : null,
    onResourcesChangeCallbackUri: row.on_resources_change_callback_uri,
    scalable: row.scalable,
    scalingRules: rules.filter((rule) => rule.group_id === row.id).map(toScalingRule),
    resources: resources
      .filter(({ resource }) => resource.group_id === row.id)
      .sort((a, b) => RESOURCE_ORDER[a.resource.type] - RESOURCE_ORDER[b.resource.type])
      .map(({ resource, node }) => toResource(resource, toNode(node, loads.get(node.id) ?? null))),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  }));
}

function toResource(resource: ResourceRow, node: NodeGroupResource['node']): NodeGroupResource {
  return {
    id: resource.id,
    type: resource.type,
    node,
    provider: resource.provider,
    externalId: resource.external_id,
    createdAt: resource.created_at.toISOString(),
  };
}
