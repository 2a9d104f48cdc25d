import type { NodeGroup } from '@streamcloud/contract';
import type { Scope, UnitOfWork } from '../../db/unit-of-work.js';
import type { Clock } from '../../lib/clock.js';
import type { NodesRepository } from '../nodes/index.js';
import { presentGroups } from './node-group-mapper.js';
import type { NodeGroupsRepository } from './node-groups.repository.js';

/** The events of node groups, published on the transaction of the change. */
export interface NodeGroupEventsMap {
  /**
   * A group's nodes changed (attached, detached, allocated, released). `present()` is the group as the API
   * answers it afterwards (null: it is gone).
   */
  'node-group.resources-changed': {
    group: { id: string; ownerId: string | null; callbackUri: string | null };
    at: Date;
    present(): Promise<NodeGroup | null>;
  };
}

declare module '../events.js' {
  interface DomainEvents extends NodeGroupEventsMap {}
}

/**
 * The repositories a change of a group's nodes works with, on its transaction. A provisioned node's row is
 * written here, beside its group's resource and event, so a group deleted meanwhile rolls all three back.
 */
export interface ResourceChangeRepositories {
  groups: NodeGroupsRepository;
  nodes: NodesRepository;
}

/**
 * A group's nodes change (attached, detached, allocated, released) in a transaction that also writes the
 * group's node-group.resources-changed webhook event, with the group as the API answers it afterwards.
 * The group's owner signs it; the platform signs those of its own groups.
 */
export class ResourcesChanges {
  constructor(private readonly deps: { uow: Scope<'nodeGroups' | 'nodes' | 'events'>; clock: Clock }) {}

  /** Runs `change`; when it answers true the group's nodes changed and its event is written. */
  async change(
    groupId: string,
    change: (repositories: ResourceChangeRepositories) => Promise<boolean>,
  ): Promise<boolean> {
    return this.deps.uow.transaction(async ({ nodeGroups: groups, nodes, events }) => {
      const changed = await change({ groups, nodes });
      if (changed) await this.publish(groups, events, groupId);
      return changed;
    });
  }

  private async publish(groups: NodeGroupsRepository, events: UnitOfWork['events'], groupId: string): Promise<void> {
    const row = await groups.findGroup(groupId);
    if (!row) return;
    await events.publish('node-group.resources-changed', {
      group: { id: row.id, ownerId: row.owner_id, callbackUri: row.on_resources_change_callback_uri },
      at: this.deps.clock.now(),
      present: async () => (await presentGroups(groups, [row]))[0] ?? null,
    });
  }
}
