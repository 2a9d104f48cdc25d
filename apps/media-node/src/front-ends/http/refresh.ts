import type { Node, NodeRefreshMode } from '@streamcloud/contract';
import type { NodeClips } from '../../clips/clips.js';
import type { MediaPorts } from '../../config.js';
import type { ControlPlaneClient } from '../../control-plane.js';
import type { StreamManager } from '../../streams/manager.js';

/** What a refresh reads and asks of the node. */
export interface RefreshableNode {
  readonly client: ControlPlaneClient;
  readonly manager: StreamManager;
  readonly clips: NodeClips;
  readonly ports: MediaPorts;
  readonly problems: readonly string[];
  /** Who the control plane says the node is: read again by ServerId, Location and ALL. */
  identity: Node | null;
  metadata(): Record<string, unknown>;
  /** Reads the assigned streams now. */
  poll(): Promise<void>;
  /** Sends the load report now. */
  sendLoad(): void;
}

/** `POST /refresh` of the control API: the twelve refresh modes, as far as they apply to this node (docs/decisions.md, '## Media node'). */
export async function refreshNode(node: RefreshableNode, mode: NodeRefreshMode): Promise<Record<string, unknown>> {
  const { client, manager } = node;
  switch (mode) {
    case 'ServerId':
    case 'Location': {
      const identity = await client.whoami();
      node.identity = identity;
      return mode === 'ServerId' ? { serverId: identity.id, name: identity.name } : { location: identity.location };
    }
    case 'Protocols':
      await client.setMediaPorts(node.ports);
      return { mediaPorts: node.ports, protocols: node.metadata().protocols, problems: node.problems };
    case 'Streams':
      await node.poll();
      return { inputs: manager.resync(), pushes: manager.activePushes().length };
    case 'Clips':
      await node.clips.read();
      return node.clips.describe();
    case 'Sessions':
      manager.resync();
      return { sessions: manager.viewers.count };
    case 'Bandwidth':
      node.sendLoad();
      return { reported: true };
    case 'EmergencyCleanup':
      manager.admission.emergency = true;
      return { emergencyCleanup: true, ...manager.cleanup() };
    case 'EmergencyCleanupDisable':
      manager.admission.emergency = false;
      return { emergencyCleanup: false };
    case 'Triggers':
    case 'Tags':
    case 'TURN':
      return { applied: false, reason: `${mode} does not apply to this node` };
    case 'ALL': {
      const identity = await client.whoami();
      node.identity = identity;
      await client.setMediaPorts(node.ports);
      await node.poll();
      const streams = manager.resync();
      node.sendLoad();
      return { serverId: identity.id, inputs: streams, sessions: manager.viewers.count, mediaPorts: node.ports };
    }
  }
}
