import { randomUUID } from 'node:crypto';
import type {
  AllocateResult,
  NodeGroup,
  NodeGroupCreate,
  NodeGroupUpdate,
  PersistentNodeCandidate,
  ScalingEvent,
  ScalingRule,
  ScalingRuleInput,
} from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import type { AccountsService } from '../accounts/index.js';
import { AuditTrail } from '../audit/audit-trail.js';
import type { NodesService } from '../nodes/index.js';
import { presentGroups, toScalingEvent, toScalingRule } from './node-group-mapper.js';
import type { NodeGroupFields, NodeGroupRow, ScalingRuleFields } from './node-groups.repository.js';
import type { ResourcesChanges } from './resources-changed.js';
import type { ScalingExecutor } from './scaling-actions.js';

export interface NodeGroupsServiceDeps {
  uow: Scope<'nodeGroups' | 'access' | 'audit'>;
  nodes: Pick<NodesService, 'list'>;
  accounts: Pick<AccountsService, 'exists'>;
  executor: ScalingExecutor;
  /** Changes of a group's nodes, with their node-group.resources-changed event on the same transaction. */
  resources: ResourcesChanges;
  clock: Clock;
}

function ruleFields(body: ScalingRuleInput): ScalingRuleFields {
  return {
    enabled: body.enabled,
    action_timeout: body.actionTimeout,
    condition_type: body.condition.type,
    settings_type: body.condition.settings.type,
    comparison: body.condition.settings.comparison,
    value: body.condition.settings.value,
    duration: body.condition.settings.duration,
    action_type: body.action.type,
    provider: body.action.settings.provider,
    provider_value: body.action.settings.value,
    bandwidth_limit_mbps: body.action.settings.bandwidthLimitMbps,
    amount: body.action.settings.amount,
  };
}

const notInGroup = () => new AppError(404, 'NOT_FOUND', 'The node is not in this node group');

/**
 * Node groups: ADMIN sees and changes every group. A USER sees the groups it owns, read-only: any
 * change of its own group is 403, and every other group (another owner's or the streaming cloud's
 * own) does not exist for it (404).
 */
export class NodeGroupsService {
  private readonly audit: AuditTrail;

  constructor(private readonly deps: NodeGroupsServiceDeps) {
    this.audit = new AuditTrail(deps.uow.audit, deps.clock, 'node-group');
  }

  async list(auth: AuthContext): Promise<NodeGroup[]> {
    const rows = await this.deps.uow.nodeGroups.listGroups(
      this.deps.uow.access.accountScope(auth, undefined) ?? undefined,
    );
    return presentGroups(this.deps.uow.nodeGroups, rows);
  }

  async get(auth: AuthContext, id: string): Promise<NodeGroup> {
    return this.one(await this.visible(auth, id));
  }

  async create(auth: AuthContext, body: NodeGroupCreate): Promise<NodeGroup> {
    await this.assertOwner(body.ownerId);
    const id = randomUUID();
    await this.deps.uow.nodeGroups.insertGroup(
      id,
      {
        name: body.name,
        description: body.description ?? null,
        assignment: body.assignment,
        owner_id: body.ownerId,
        on_resources_change_callback_uri: body.onResourcesChangeCallbackUri ?? null,
      },
      this.deps.clock.now(),
    );
    await this.audit.record(auth, 'node-group.create', id, { name: body.name, ownerId: body.ownerId });
    return this.get(auth, id);
  }

  async update(auth: AuthContext, id: string, body: NodeGroupUpdate): Promise<NodeGroup> {
    await this.writable(auth, id);
    if (body.ownerId) await this.assertOwner(body.ownerId);
    const changes: Partial<NodeGroupFields> = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.assignment !== undefined ? { assignment: body.assignment } : {}),
      ...(body.ownerId !== undefined ? { owner_id: body.ownerId } : {}),
      ...(body.onResourcesChangeCallbackUri !== undefined
        ? { on_resources_change_callback_uri: body.onResourcesChangeCallbackUri }
        : {}),
      ...(body.scalable !== undefined ? { scalable: body.scalable } : {}),
    };
    if (!(await this.deps.uow.nodeGroups.updateGroup(id, changes, this.deps.clock.now()))) throw notFound('Node group');
    await this.audit.record(auth, 'node-group.update', id, { fields: Object.keys(body), ...pick(body, 'scalable') });
    return this.get(auth, id);
  }

  /** Deletes the group, its rules and its events; its nodes stay (allocated instances keep running). */
  async delete(auth: AuthContext, id: string): Promise<void> {
    const group = await this.writable(auth, id);
    if (!(await this.deps.uow.nodeGroups.deleteGroup(id))) throw notFound('Node group');
    await this.audit.record(auth, 'node-group.delete', id, { name: group.name });
  }

  async addRule(auth: AuthContext, id: string, body: ScalingRuleInput): Promise<ScalingRule> {
    await this.writable(auth, id);
    const row = await this.deps.uow.nodeGroups.insertRule(randomUUID(), id, ruleFields(body), this.deps.clock.now());
    await this.audit.record(auth, 'scaling-rule.create', id, { ruleId: row.id });
    return toScalingRule(row);
  }

  async updateRule(auth: AuthContext, id: string, ruleId: string, body: ScalingRuleInput): Promise<ScalingRule> {
    await this.writable(auth, id);
    const row = await this.deps.uow.nodeGroups.updateRule(id, ruleId, ruleFields(body), this.deps.clock.now());
    if (!row) throw notFound('Scaling rule');
    await this.audit.record(auth, 'scaling-rule.update', id, { ruleId, enabled: body.enabled });
    return toScalingRule(row);
  }

  async deleteRule(auth: AuthContext, id: string, ruleId: string): Promise<void> {
    await this.writable(auth, id);
    if (!(await this.deps.uow.nodeGroups.deleteRule(id, ruleId))) throw notFound('Scaling rule');
    await this.audit.record(auth, 'scaling-rule.delete', id, { ruleId });
  }

  /** Makes the node Persistent in the group (idempotent; an Allocated member becomes Persistent). */
  async attachNode(auth: AuthContext, id: string, nodeId: string): Promise<void> {
    await this.writable(auth, id);
    if (!(await this.deps.uow.nodeGroups.nodeExists(nodeId))) throw notFound('Node');
    const existing = await this.deps.uow.nodeGroups.findResource(id, nodeId);
    if (existing?.type === 'Persistent') return;
    await this.deps.resources.change(id, async ({ groups }) => {
      await groups.upsertPersistent(randomUUID(), id, nodeId, this.deps.clock.now());
      return true;
    });
    await this.audit.record(auth, 'node-group.node.attach', id, { nodeId, was: existing?.type ?? null });
  }

  /** Takes the node out of the group; the node itself (and an allocated instance) stays. */
  async detachNode(auth: AuthContext, id: string, nodeId: string): Promise<void> {
    await this.writable(auth, id);
    if (!(await this.deps.resources.change(id, ({ groups }) => groups.deleteResource(id, nodeId)))) throw notInGroup();
    await this.audit.record(auth, 'node-group.node.detach', id, { nodeId });
  }

  /** Every node with the groups it is in, for the persistent-node picker (ADMIN; the route checks). */
  async persistentNodeCandidates(): Promise<PersistentNodeCandidate[]> {
    const [nodes, memberships] = await Promise.all([this.deps.nodes.list(), this.deps.uow.nodeGroups.memberships()]);
    const groups = new Map<string, PersistentNodeCandidate['groups']>();
    for (const membership of memberships) {
      const list = groups.get(membership.node_id) ?? [];
      list.push({ id: membership.group_id, name: membership.group_name, type: membership.type });
      groups.set(membership.node_id, list);
    }
    return nodes.map((node) => ({ node, groups: groups.get(node.id) ?? [] }));
  }

  async scalingEvents(auth: AuthContext, id: string, limit: number): Promise<ScalingEvent[]> {
    await this.visible(auth, id);
    return (await this.deps.uow.nodeGroups.listEvents(id, limit)).map(toScalingEvent);
  }

  /**
   * 'Allocate node': one node now, from the provider of the group's first enabled Increase rule (else
   * its first Increase rule, else its first rule), with that rule's value and bandwidth limit.
   */
  async allocate(auth: AuthContext, id: string): Promise<AllocateResult> {
    const group = await this.writable(auth, id);
    const rules = await this.deps.uow.nodeGroups.rulesOf([id]);
    const rule =
      rules.find((r) => r.action_type === 'Increase' && r.enabled) ??
      rules.find((r) => r.action_type === 'Increase') ??
      rules[0];
    if (!rule) {
      throw conflict(
        'Add a scaling rule first: the node group allocates from the provider of its rules',
        'NO_PROVIDER',
      );
    }
    const result = await this.deps.executor.increase({
      group: { id, name: group.name },
      ruleId: null,
      action: 'Allocate',
      provider: rule.provider,
      count: 1,
      value: rule.provider_value,
      bandwidthLimitMbps: rule.bandwidth_limit_mbps,
      actor: { actorId: auth.accountId, actingAdminId: auth.actingAdminId },
    });
    if (result.error && result.nodeIds.length === 0) {
      throw result.error.notConfigured
        ? new AppError(503, 'PROVIDER_NOT_CONFIGURED', result.error.message)
        : new AppError(502, 'PROVIDER_FAILED', result.error.message);
    }
    const allocated = new Set(result.nodeIds);
    const resources = (await this.one(group)).resources.filter((resource) => allocated.has(resource.node.id));
    return { event: toScalingEvent(result.event), resources };
  }

  // Visibility and hydration

  /** The group if the caller may see it: ADMIN any, USER only its own; 404 otherwise. */
  private async visible(auth: AuthContext, id: string): Promise<NodeGroupRow> {
    await this.deps.uow.access.require(auth, 'nodeGroup', id);
    const row = await this.deps.uow.nodeGroups.findGroup(id);
    if (!row) throw notFound('Node group');
    return row;
  }

  /** The group if the caller may change it: ADMIN only; a USER's own group is 403, any other 404. */
  private async writable(auth: AuthContext, id: string): Promise<NodeGroupRow> {
    const row = await this.visible(auth, id);
    if (auth.role !== 'ADMIN') throw forbidden('Only administrators can change node groups');
    return row;
  }

  private async assertOwner(ownerId: string | null): Promise<void> {
    if (ownerId && !(await this.deps.accounts.exists(ownerId))) {
      throw badRequest('The owner account does not exist', 'OWNER_NOT_FOUND');
    }
  }

  private async one(row: NodeGroupRow): Promise<NodeGroup> {
    const [group] = await presentGroups(this.deps.uow.nodeGroups, [row]);
    if (!group) throw notFound('Node group');
    return group;
  }
}

const pick = <T extends object, K extends keyof T>(value: T, key: K) =>
  value[key] !== undefined ? { [key]: value[key] } : {};
