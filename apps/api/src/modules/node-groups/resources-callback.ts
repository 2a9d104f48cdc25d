import { isUnreachable } from '@streamcloud/net-guard';
import type { Clock } from '../../lib/clock.js';
import type { NodeGroupsRepository } from './node-groups.repository.js';
import type { Fetch } from './providers/provider.js';

const CALLBACK_TIMEOUT_MS = 5_000;

/**
 * Tells a group's onResourcesChangeCallbackUri that its nodes changed (attached, detached, allocated,
 * released): `POST {uri}` with JSON `{event: 'node-group.resources-changed', groupId, at, resources:
 * [{id, type, nodeId, name, protocol, hostname, port}]}`, 5 s timeout, no retry. Each delivery is
 * recorded as a Callback scaling event. It never delays or fails the change itself.
 */
export class ResourcesCallback {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      repository: NodeGroupsRepository;
      clock: Clock;
      fetch: Fetch;
    },
  ) {}

  notify(groupId: string): void {
    const delivery = this.deliver(groupId).catch(() => undefined);
    this.pending.add(delivery);
    void delivery.finally(() => this.pending.delete(delivery));
  }

  /** Resolves once every started delivery has finished (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private async deliver(groupId: string): Promise<void> {
    const group = await this.deps.repository.findGroup(groupId);
    const uri = group?.on_resources_change_callback_uri;
    if (!group || !uri) return;
    const resources = await this.deps.repository.resourcesOf([groupId]);
    const at = this.deps.clock.now();
    const body = {
      event: 'node-group.resources-changed',
      groupId,
      at: at.toISOString(),
      resources: resources.map(({ resource, node }) => ({
        id: resource.id,
        type: resource.type,
        nodeId: node.id,
        name: node.name,
        protocol: node.protocol,
        hostname: node.hostname,
        port: node.port,
      })),
    };
    let success = false;
    let message: string;
    try {
      const response = await this.deps.fetch(uri, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(CALLBACK_TIMEOUT_MS),
      });
      await response.body?.cancel().catch(() => undefined);
      success = response.ok;
      message = `Callback ${uri} answered ${response.status}`;
    } catch (error) {
      message = `Callback ${uri} failed: ${callbackFailure(error)}`;
    }
    await this.deps.repository
      .insertEvent({
        group_id: groupId,
        rule_id: null,
        at: this.deps.clock.now(),
        type: 'Callback',
        action: 'Notify',
        provider: null,
        success,
        message,
        details: { resources: body.resources.length },
      })
      .catch(() => undefined);
  }
}

/**
 * Why a delivery failed, for the group's events (its owner reads them): refused, unknown, unreachable and
 * not allowed (net-guard) read alike, so the events cannot be used to tell open ports from closed ones.
 */
function callbackFailure(error: unknown): string {
  const name = (error as { name?: string }).name;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${CALLBACK_TIMEOUT_MS / 1000} s`;
  if (isUnreachable(error)) return 'the host cannot be reached';
  return error instanceof Error ? error.message : String(error);
}
