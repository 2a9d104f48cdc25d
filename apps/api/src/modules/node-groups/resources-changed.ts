import type { Db } from '../../db/database.js';
import type { Scope } from '../../db/unit-of-work.js';
import type { Clock } from '../../lib/clock.js';
import type { NodesRepository } from '../nodes/index.js';
import type { WebhookOutbox } from '../webhooks/index.js';
import { presentGroups } from './node-group-mapper.js';
import type { NodeGroupsRepository } from './node-groups.repository.js';

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
  constructor(private readonly deps: { uow: Scope<'nodeGroups' | 'nodes'>; outbox: WebhookOutbox; clock: Clock }) {}

  /** Runs `change`; when it answers true the group's nodes changed and its event is written. */
  async change(
    groupId: string,
    change: (repositories: ResourceChangeRepositories) => Promise<boolean>,
  ): Promise<boolean> {
    return this.deps.uow.transaction(async ({ nodeGroups: groups, nodes }) => {
      const changed = await change({ groups, nodes });
      if (changed) await this.emit(groups.db, groups, groupId);
      return changed;
    });
  }

  private async emit(db: Db, groups: NodeGroupsRepository, groupId: string): Promise<void> {
    const row = await groups.findGroup(groupId);
    const url = row?.on_resources_change_callback_uri;
    if (!row || !url) return;
    const [group] = await presentGroups(groups, [row]);
    if (!group) return;
    await this.deps.outbox.emit(db, {
      type: 'node-group.resources-changed',
      accountId: row.owner_id,
      resourceType: 'node-group',
      resourceId: row.id,
      streamId: null,
      url,
      occurredAt: this.deps.clock.now(),
      data: group,
    });
  }
}
