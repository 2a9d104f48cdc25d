import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type {
  NodeGroupResourcesTable,
  NodeGroupsTable,
  NodeLoadSamplesTable,
  ScalingEventsTable,
  ScalingRulesTable,
} from '../../db/schema.js';
import type { NodeRow } from '../nodes/nodes.repository.js';

type Dated<T, K extends keyof T> = Omit<T, K> & { [P in K]: Date };

export type NodeGroupRow = Dated<NodeGroupsTable, 'created_at' | 'updated_at'> & {
  scalable: boolean;
  owner_username: string | null;
};
export type NodeGroupFields = Pick<
  NodeGroupsTable,
  'name' | 'description' | 'assignment' | 'owner_id' | 'on_resources_change_callback_uri'
> & { scalable?: boolean };

export type ScalingRuleRow = Dated<ScalingRulesTable, 'created_at' | 'updated_at'>;
export type ScalingRuleFields = Omit<
  ScalingRulesTable,
  'id' | 'group_id' | 'last_action_at' | 'created_at' | 'updated_at'
>;

export type ResourceRow = Dated<NodeGroupResourcesTable, 'created_at'>;
export type LoadSampleRow = Selectable<NodeLoadSamplesTable>;

export type ScalingEventRow = Omit<ScalingEventsTable, 'id' | 'details'> & { id: number; details: unknown };
export type NewScalingEvent = Omit<ScalingEventsTable, 'id' | 'details'> & { details?: Record<string, unknown> | null };

/** A rule the autoscaler evaluates: enabled, of a scalable group. */
export type ActiveRuleRow = ScalingRuleRow & { group_name: string };

/** A node of a group, with what the evaluation needs. */
export interface GroupNodeRow {
  group_id: string;
  node_id: string;
  bandwidth_limit_mbps: number;
}

/** Node groups, their scaling rules, memberships and scaling events: the only SQL of the module. */
export class NodeGroupsRepository {
  /** The connection it queries: a transaction's within a unit of work's `transaction`. */
  constructor(readonly db: Db) {}

  private groups() {
    return this.db
      .selectFrom('node_groups as g')
      .leftJoin('accounts as a', 'a.id', 'g.owner_id')
      .selectAll('g')
      .select('a.username as owner_username');
  }

  /** Every group, or only the groups of one owner. */
  listGroups(ownerId?: string): Promise<NodeGroupRow[]> {
    let query = this.groups();
    if (ownerId !== undefined) query = query.where('g.owner_id', '=', ownerId);
    return query.orderBy(sql`lower(g.name)`).orderBy('g.id').execute() as Promise<NodeGroupRow[]>;
  }

  async findGroup(id: string): Promise<NodeGroupRow | null> {
    return ((await this.groups().where('g.id', '=', id).executeTakeFirst()) as NodeGroupRow | undefined) ?? null;
  }

  async insertGroup(id: string, fields: NodeGroupFields, now: Date): Promise<void> {
    await this.db
      .insertInto('node_groups')
      .values({ id, ...fields, scalable: false, created_at: now, updated_at: now })
      .execute();
  }

  async updateGroup(id: string, changes: Partial<NodeGroupFields>, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('node_groups')
      .set({ ...changes, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes the group with its rules, events and memberships; the nodes stay. */
  async deleteGroup(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('node_groups').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  // Scaling rules

  rulesOf(groupIds: string[]): Promise<ScalingRuleRow[]> {
    if (groupIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('scaling_rules')
      .selectAll()
      .where('group_id', 'in', groupIds)
      .orderBy('created_at')
      .orderBy('id')
      .execute() as Promise<ScalingRuleRow[]>;
  }

  async findRule(groupId: string, ruleId: string): Promise<ScalingRuleRow | null> {
    return (
      ((await this.db
        .selectFrom('scaling_rules')
        .selectAll()
        .where('id', '=', ruleId)
        .where('group_id', '=', groupId)
        .executeTakeFirst()) as ScalingRuleRow | undefined) ?? null
    );
  }

  insertRule(id: string, groupId: string, fields: ScalingRuleFields, now: Date): Promise<ScalingRuleRow> {
    return this.db
      .insertInto('scaling_rules')
      .values({ id, group_id: groupId, ...fields, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow() as Promise<ScalingRuleRow>;
  }

  async updateRule(
    groupId: string,
    ruleId: string,
    fields: ScalingRuleFields,
    now: Date,
  ): Promise<ScalingRuleRow | null> {
    return (
      ((await this.db
        .updateTable('scaling_rules')
        .set({ ...fields, updated_at: now })
        .where('id', '=', ruleId)
        .where('group_id', '=', groupId)
        .returningAll()
        .executeTakeFirst()) as ScalingRuleRow | undefined) ?? null
    );
  }

  async deleteRule(groupId: string, ruleId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('scaling_rules')
      .where('id', '=', ruleId)
      .where('group_id', '=', groupId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  // Memberships

  /** The memberships of the given groups with their node rows. */
  async resourcesOf(groupIds: string[]): Promise<Array<{ resource: ResourceRow; node: NodeRow }>> {
    if (groupIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('node_group_resources as r')
      .innerJoin('nodes as n', 'n.id', 'r.node_id')
      .selectAll('n')
      .select([
        'r.id as r_id',
        'r.group_id as r_group_id',
        'r.node_id as r_node_id',
        'r.type as r_type',
        'r.provider as r_provider',
        'r.external_id as r_external_id',
        'r.created_at as r_created_at',
      ])
      .where('r.group_id', 'in', groupIds)
      .orderBy(sql`lower(n.name)`)
      .orderBy('n.id')
      .execute();
    return rows.map(({ r_id, r_group_id, r_node_id, r_type, r_provider, r_external_id, r_created_at, ...node }) => ({
      resource: {
        id: r_id,
        group_id: r_group_id,
        node_id: r_node_id,
        type: r_type,
        provider: r_provider,
        external_id: r_external_id,
        created_at: r_created_at as Date,
      },
      node: node as NodeRow,
    }));
  }

  async findResource(groupId: string, nodeId: string): Promise<ResourceRow | null> {
    return (
      ((await this.db
        .selectFrom('node_group_resources')
        .selectAll()
        .where('group_id', '=', groupId)
        .where('node_id', '=', nodeId)
        .executeTakeFirst()) as ResourceRow | undefined) ?? null
    );
  }

  /** Makes the node a Persistent member: a new membership, or an Allocated one turned Persistent. */
  async upsertPersistent(id: string, groupId: string, nodeId: string, now: Date): Promise<void> {
    await this.db
      .insertInto('node_group_resources')
      .values({ id, group_id: groupId, node_id: nodeId, type: 'Persistent', created_at: now })
      .onConflict((oc) => oc.columns(['group_id', 'node_id']).doUpdateSet({ type: 'Persistent' }))
      .execute();
  }

  async insertAllocated(
    resource: Pick<NodeGroupResourcesTable, 'id' | 'group_id' | 'node_id' | 'provider' | 'external_id'>,
    now: Date,
  ): Promise<void> {
    await this.db
      .insertInto('node_group_resources')
      .values({ ...resource, type: 'Allocated', created_at: now })
      .execute();
  }

  async deleteResource(groupId: string, nodeId: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('node_group_resources')
      .where('group_id', '=', groupId)
      .where('node_id', '=', nodeId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The group's allocated memberships, most recent first. */
  allocatedOf(groupId: string, limit: number): Promise<ResourceRow[]> {
    return this.db
      .selectFrom('node_group_resources')
      .selectAll()
      .where('group_id', '=', groupId)
      .where('type', '=', 'Allocated')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute() as Promise<ResourceRow[]>;
  }

  async nodeExists(id: string): Promise<boolean> {
    return (await this.db.selectFrom('nodes').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** Every membership with its group's name, for the persistent-node picker. */
  memberships(): Promise<Array<{ node_id: string; group_id: string; group_name: string; type: ResourceRow['type'] }>> {
    return this.db
      .selectFrom('node_group_resources as r')
      .innerJoin('node_groups as g', 'g.id', 'r.group_id')
      .select(['r.node_id', 'r.group_id', 'g.name as group_name', 'r.type'])
      .orderBy(sql`lower(g.name)`)
      .execute();
  }

  // Load, for the dashboard and the autoscaler

  /** The latest sample of each of the given nodes that reported. */
  async latestLoads(nodeIds: string[]): Promise<Map<string, LoadSampleRow>> {
    if (nodeIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('node_load_samples')
      .distinctOn('node_id')
      .selectAll()
      .where('node_id', 'in', nodeIds)
      .orderBy('node_id')
      .orderBy('at', 'desc')
      .execute();
    return new Map(rows.map((row) => [row.node_id, row]));
  }

  /** Enabled rules of scalable groups. */
  activeRules(): Promise<ActiveRuleRow[]> {
    return this.db
      .selectFrom('scaling_rules as r')
      .innerJoin('node_groups as g', 'g.id', 'r.group_id')
      .selectAll('r')
      .select('g.name as group_name')
      .where('g.scalable', '=', true)
      .where('r.enabled', '=', true)
      .orderBy('r.created_at')
      .orderBy('r.id')
      .execute() as Promise<ActiveRuleRow[]>;
  }

  groupNodes(groupIds: string[]): Promise<GroupNodeRow[]> {
    if (groupIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('node_group_resources as r')
      .innerJoin('nodes as n', 'n.id', 'r.node_id')
      .select(['r.group_id', 'r.node_id', 'n.bandwidth_limit_mbps'])
      .where('r.group_id', 'in', groupIds)
      .execute();
  }

  /** Samples of the given nodes taken in [from, to], oldest first. */
  samplesBetween(nodeIds: string[], from: Date, to: Date): Promise<LoadSampleRow[]> {
    if (nodeIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('node_load_samples')
      .selectAll()
      .where('node_id', 'in', nodeIds)
      .where('at', '>=', from)
      .where('at', '<=', to)
      .orderBy('at')
      .execute();
  }

  /**
   * Marks that the rule acts now, if it is still enabled, its group still scalable and its action
   * timeout has passed since it last acted; false when another evaluation got there first.
   */
  async claimRule(ruleId: string, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('scaling_rules')
      .set({ last_action_at: now })
      .where('id', '=', ruleId)
      .where('enabled', '=', true)
      .where((eb) =>
        eb.or([
          eb('last_action_at', 'is', null),
          eb(sql`last_action_at + action_timeout * interval '1 second'`, '<=', now),
        ]),
      )
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('node_groups as g')
            .select('g.id')
            .whereRef('g.id', '=', 'scaling_rules.group_id')
            .where('g.scalable', '=', true),
        ),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  // Scaling events

  insertEvent(event: NewScalingEvent): Promise<ScalingEventRow> {
    return this.db
      .insertInto('scaling_events')
      .values({ ...event, details: event.details ? JSON.stringify(event.details) : null })
      .returningAll()
      .executeTakeFirstOrThrow() as Promise<ScalingEventRow>;
  }

  listEvents(groupId: string, limit: number): Promise<ScalingEventRow[]> {
    return this.db
      .selectFrom('scaling_events')
      .selectAll()
      .where('group_id', '=', groupId)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute() as Promise<ScalingEventRow[]>;
  }

  async pruneEvents(before: Date): Promise<void> {
    await this.db.deleteFrom('scaling_events').where('at', '<', before).execute();
  }
}
