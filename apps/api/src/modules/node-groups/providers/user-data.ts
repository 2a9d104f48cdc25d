import type { LaunchSpec } from './provider.js';

/** Shell-quotes one value for a POSIX shell (single quotes, embedded quotes escaped). */
const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * The boot script a cloud instance runs (EC2 UserData, droplet user_data, OCI metadata.user_data):
 * it writes the node's identity to /etc/streamcloud/node.env (mode 600) and runs the start command,
 * which reads that file. The token is the node's own: each instance is launched with its own script.
 */
export function nodeBootScript(spec: LaunchSpec, controlPlaneUrl: string | null, startCommand: string): string {
  const lines = [
    '#!/bin/sh',
    '# Streamcloud media node, started by the control plane autoscaler',
    'set -eu',
    'umask 077',
    'mkdir -p /etc/streamcloud',
    "cat > /etc/streamcloud/node.env <<'STREAMCLOUD_ENV'",
    `STREAMCLOUD_CONTROL_PLANE_URL=${quote(controlPlaneUrl ?? '')}`,
    `STREAMCLOUD_NODE_ID=${quote(spec.nodeId)}`,
    `STREAMCLOUD_NODE_NAME=${quote(spec.name)}`,
    `STREAMCLOUD_NODE_TOKEN=${quote(spec.token)}`,
    `STREAMCLOUD_NODE_BANDWIDTH_LIMIT_MBPS=${quote(String(spec.bandwidthLimitMbps))}`,
    'STREAMCLOUD_ENV',
    `exec ${startCommand}`,
    '',
  ];
  return lines.join('\n');
}
