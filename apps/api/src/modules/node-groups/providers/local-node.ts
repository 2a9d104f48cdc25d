/**
 * A stand-in media node for the local scaling provider: it serves the node control API
 * (`GET /metadata`, `POST /refresh {mode}`) on 127.0.0.1 and reports its load to the control plane
 * (`POST /api/v1/node/reports`) with its node token every STREAMCLOUD_REPORT_INTERVAL_SECONDS.
 * Like a real node, it answers only calls signed by the control plane for its token (docs/node-control-api.md:
 * 401 otherwise, and always without a token). It prints `listening <port>` once ready and stops on SIGTERM or SIGINT.
 *
 * Environment: STREAMCLOUD_NODE_ID, STREAMCLOUD_NODE_NAME, STREAMCLOUD_NODE_TOKEN,
 * STREAMCLOUD_CONTROL_PLANE_URL (no reports when empty), STREAMCLOUD_NODE_PORT (0: any free port),
 * STREAMCLOUD_REPORT_INTERVAL_SECONDS (default 10).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import {
  bearerOf,
  nodeControlKeyOf,
  nodeTokenHash,
  verifyNodeControl,
} from '@streamcloud/contract/node-control-credential';
import { addressPolicy, createNetGuard } from '@streamcloud/net-guard';

const env = process.env;
// The control plane is the operator's: usually on this host or a private network.
const controlPlane = createNetGuard(addressPolicy({ allowPrivate: true }));
const startedAt = new Date().toISOString();
const reportIntervalMs = Math.max(1, Number(env.STREAMCLOUD_REPORT_INTERVAL_SECONDS ?? 10)) * 1000;
const controlKey = env.STREAMCLOUD_NODE_TOKEN ? nodeControlKeyOf(nodeTokenHash(env.STREAMCLOUD_NODE_TOKEN)) : null;

const server = createServer((request, response) => {
  const send = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  let text = '';
  request.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    if (text.length > 10_000) request.destroy();
  });
  request.on('end', () => {
    const call = { method: request.method ?? 'GET', path: request.url ?? '/', body: text };
    if (!controlKey || !verifyNodeControl(controlKey, call, bearerOf(request.headers.authorization))) {
      send(401, { message: 'The node control API needs the control plane credential' });
      return;
    }
    if (call.method === 'GET' && call.path === '/metadata') {
      send(200, {
        nodeId: env.STREAMCLOUD_NODE_ID ?? null,
        name: env.STREAMCLOUD_NODE_NAME ?? null,
        provider: 'local',
        pid: process.pid,
        startedAt,
      });
      return;
    }
    if (call.method === 'POST' && call.path === '/refresh') {
      try {
        const { mode } = JSON.parse(text) as { mode?: string };
        send(200, { mode: mode ?? null, refreshed: true });
      } catch {
        send(400, { message: 'Body must be JSON with a mode' });
      }
      return;
    }
    send(404, { message: 'Not found' });
  });
});

async function report(): Promise<void> {
  const base = env.STREAMCLOUD_CONTROL_PLANE_URL;
  if (!base || !env.STREAMCLOUD_NODE_TOKEN) return;
  const cpuPercent = Math.min(100, Math.max(0, ((loadavg()[0] ?? 0) / Math.max(1, cpus().length)) * 100));
  try {
    await controlPlane.fetch(`${base.replace(/\/$/, '')}/api/v1/node/reports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.STREAMCLOUD_NODE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        reports: [{ id: randomUUID(), kind: 'load', cpuPercent, bandwidthMbps: 0, sessions: 0 }],
      }),
      signal: AbortSignal.timeout(5000),
    });
  } catch {
    // the control plane may be restarting; the next report tries again
  }
}

server.listen(Number(env.STREAMCLOUD_NODE_PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`listening ${port}\n`);
  void report();
});
const timer = setInterval(() => void report(), reportIntervalMs);

const stop = () => {
  clearInterval(timer);
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
