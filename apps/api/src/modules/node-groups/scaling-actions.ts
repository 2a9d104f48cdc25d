import { randomUUID } from 'node:crypto';
import type { ScalingProviderName } from '@streamcloud/contract';
import type { Clock } from '../../lib/clock.js';
import type { AuditRepository } from '../audit/index.js';
import { generateNodeToken, hashNodeToken } from '../nodes/node-token.js';
import type { NewScalingEvent, NodeGroupsRepository, ScalingEventRow } from './node-groups.repository.js';
import { ProviderError, type ScalingProviders } from './providers/provider.js';
import type { ResourcesChanges } from './resources-changed.js';

export interface ScalingActor {
  actorId: string | null;
  actingAdminId: string | null;
}

export const AUTOSCALER: ScalingActor = { actorId: null, actingAdminId: null };

export interface IncreaseRequest {
  group: { id: string; name: string };
  ruleId: string | null;
  /** Increase (a rule) or Allocate (the dashboard's 'Allocate node'). */
  action: 'Increase' | 'Allocate';
  provider: ScalingProviderName;
  count: number;
  value: string | null;
  bandwidthLimitMbps: number;
  actor: ScalingActor;
}

export interface IncreaseResult {
  event: ScalingEventRow;
  nodeIds: string[];
  /** The provider's failure, when it failed before starting every node. */
  error: ProviderError | null;
}

/** Letters, digits and dashes: a name every provider takes as an instance and host name. */
const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'group';

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * Performs scaling actions through the providers. Increase registers each node first (so the
 * instance boots with its node token), starts it, and records it as an Allocated node of the group;
 * Reduce stops the group's most recently allocated nodes (never Persistent ones) through the backend
 * that started each, and removes those nodes. Every provider call is recorded as a scaling event.
 */
export class ScalingExecutor {
  constructor(
    private readonly deps: {
      repository: NodeGroupsRepository;
      providers: ScalingProviders;
      audit: AuditRepository;
      clock: Clock;
      resources: ResourcesChanges;
    },
  ) {}

  async increase(request: IncreaseRequest): Promise<IncreaseResult> {
    const { repository, clock } = this.deps;
    const started: Array<{ nodeId: string; externalId: string; hostname: string }> = [];
    let error: ProviderError | null = null;
    let backend: string = request.provider;
    try {
      const provider = this.deps.providers.forRule(request.provider);
      backend = provider.name;
      for (let index = 0; index < request.count; index++) {
        const nodeId = randomUUID();
        const token = generateNodeToken();
        const name = `${slug(request.group.name)}-${provider.name.toLowerCase()}-${nodeId.slice(0, 8)}`;
        const instance = await provider.launch({
          nodeId,
          name,
          token,
          group: request.group,
          value: request.value,
          bandwidthLimitMbps: request.bandwidthLimitMbps,
        });
        const now = clock.now();
        try {
          await this.deps.resources.change(request.group.id, async ({ groups, nodes }) => {
            await nodes.insert(
              {
                id: nodeId,
                token_hash: hashNodeToken(token),
                name,
                protocol: instance.protocol,
                hostname: instance.hostname,
                port: instance.port,
                bandwidth_limit_mbps: request.bandwidthLimitMbps,
                public_ipv4: instance.publicIPv4,
                private_ipv4: instance.privateIPv4,
                location_code: null,
                location_description: instance.locationDescription,
                latitude: null,
                longitude: null,
                opened: true,
                enabled: true,
              },
              now,
            );
            await groups.insertAllocated(
              {
                id: randomUUID(),
                group_id: request.group.id,
                node_id: nodeId,
                provider: provider.name,
                external_id: instance.externalId,
              },
              now,
            );
            return true;
          });
        } catch (cause) {
          // The group may have been deleted meanwhile (the node's rows roll back): do not leave an instance
          // nobody knows of.
          await provider.terminate(instance.externalId).catch(() => undefined);
          throw cause;
        }
        started.push({ nodeId, externalId: instance.externalId, hostname: instance.hostname });
      }
    } catch (cause) {
      error =
        cause instanceof ProviderError ? cause : new ProviderError(`${backend} failed: ${(cause as Error).message}`);
    }
    const startedText = started.map((item) => `${item.externalId} (${item.hostname})`).join(', ');
    const message = error
      ? started.length > 0
        ? `${backend} started ${started.length} of ${plural(request.count, 'node')} (${startedText}), then failed: ${error.message}`
        : `${backend} could not start ${plural(request.count, 'node')}: ${error.message}`
      : `${backend} started ${plural(started.length, 'node')}: ${startedText}`;
    const event = await repository.insertEvent({
      group_id: request.group.id,
      rule_id: request.ruleId,
      at: clock.now(),
      type: 'ProviderCall',
      action: request.action,
      provider: backend,
      success: error === null,
      message,
      details: {
        requested: request.count,
        started: started.map(({ nodeId, externalId }) => ({ nodeId, externalId })),
        ...(request.value ? { value: request.value } : {}),
      },
    });
    await this.audit(request.actor, `node-group.${request.action.toLowerCase()}`, request.group.id, {
      provider: backend,
      requested: request.count,
      nodeIds: started.map((item) => item.nodeId),
      ...(error ? { error: error.message } : {}),
    });
    return { event, nodeIds: started.map((item) => item.nodeId), error };
  }

  async reduce(request: {
    group: { id: string; name: string };
    ruleId: string | null;
    count: number;
    actor: ScalingActor;
  }): Promise<ScalingEventRow[]> {
    const { repository, clock } = this.deps;
    /** One provider call of this Reduce, recorded as the group's scaling event. */
    const reduceEvent = (event: Pick<NewScalingEvent, 'provider' | 'success' | 'message' | 'details'>) =>
      repository.insertEvent({
        group_id: request.group.id,
        rule_id: request.ruleId,
        at: clock.now(),
        type: 'ProviderCall',
        action: 'Reduce',
        ...event,
      });
    const allocated = await repository.allocatedOf(request.group.id, request.count);
    if (allocated.length === 0) {
      return [
        await reduceEvent({
          provider: null,
          success: true,
          message: 'Nothing to release: the group has no allocated nodes',
          details: null,
        }),
      ];
    }
    const events: ScalingEventRow[] = [];
    let released = 0;
    for (const resource of allocated) {
      const backend = resource.provider ?? 'unknown';
      let error: string | null = null;
      try {
        const provider = this.deps.providers.byBackend(backend);
        if (!provider) throw new ProviderError(`No ${backend} scaling provider is configured`);
        if (resource.external_id) await provider.terminate(resource.external_id);
        await this.deps.resources.change(request.group.id, ({ nodes }) => nodes.delete(resource.node_id));
        released++;
      } catch (cause) {
        error = cause instanceof Error ? cause.message : String(cause);
      }
      events.push(
        await reduceEvent({
          provider: backend,
          success: error === null,
          message: error
            ? `${backend} could not stop ${resource.external_id}: ${error}`
            : `${backend} stopped ${resource.external_id}; its node was removed`,
          details: { nodeId: resource.node_id, externalId: resource.external_id },
        }),
      );
    }
    await this.audit(request.actor, 'node-group.reduce', request.group.id, {
      requested: request.count,
      released,
    });
    return events;
  }

  private audit(actor: ScalingActor, action: string, groupId: string, details: Record<string, unknown>) {
    return this.deps.audit.record(
      { ...actor, action, targetType: 'node-group', targetId: groupId, details },
      this.deps.clock.now(),
    );
  }
}
