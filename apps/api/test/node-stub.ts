import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  bearerOf,
  nodeControlKeyOf,
  nodeTokenHash,
  verifyNodeControl,
} from '@streamcloud/contract/node-control-credential';

/**
 * A tiny stand-in for a media node's control API on 127.0.0.1 (docs/node-control-api.md):
 * `GET /metadata` and `POST /refresh {mode}`. Its behaviour can be changed while it runs, and it
 * records every call. Once told the tokens of the nodes it stands for (`trust(token)`), it answers 401 to any
 * call not signed for one of them, as a node does (docs/node-control-api.md); untold, it takes any call.
 * Depends on node:http and the contract's credential module only, so e2e specs can import it too.
 */
export interface NodeStubBehaviour {
  /** What GET /metadata answers (any JSON). */
  metadata: unknown;
  /** Status of every answer; 200 by default. */
  status: number;
  /** Waits this long before answering. */
  delayMs: number;
  /** Raw body of every answer instead of JSON (for broken nodes). */
  rawBody?: string;
}

export interface NodeStubCall {
  method: string;
  path: string;
  body: unknown;
}

export interface NodeStub {
  hostname: '127.0.0.1';
  port: number;
  calls: NodeStubCall[];
  set(behaviour: Partial<NodeStubBehaviour>): void;
  /** From now on, calls must be signed for this node token (or another trusted one); `forget()` trusts none again. */
  trust(token: string): void;
  forget(): void;
  close(): Promise<void>;
}

export const DEFAULT_STUB_METADATA = {
  serverId: 'stub-node-1',
  version: '1.0.0-stub',
  protocols: ['RTMP', 'SRT', 'WebRTC'],
  streams: 0,
  sessions: 0,
};

export async function startNodeStub(initial: Partial<NodeStubBehaviour> = {}): Promise<NodeStub> {
  let behaviour: NodeStubBehaviour = { metadata: DEFAULT_STUB_METADATA, status: 200, delayMs: 0, ...initial };
  const calls: NodeStubCall[] = [];
  const keys = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();

  const answer = (response: ServerResponse, body: unknown) => {
    const text = behaviour.rawBody ?? JSON.stringify(body);
    response.writeHead(behaviour.status, { 'content-type': 'application/json' });
    response.end(text);
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = text;
      }
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      calls.push({ method: request.method ?? 'GET', path, body });
      const call = { method: request.method ?? 'GET', path: request.url ?? '/', body: text };
      const credential = bearerOf(request.headers.authorization);
      if (keys.size > 0 && ![...keys].some((key) => verifyNodeControl(key, call, credential))) {
        response.writeHead(401, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: 'The node control API needs the control plane credential' }));
        return;
      }
      const respond = () => {
        if (request.method === 'GET' && path === '/metadata') return answer(response, behaviour.metadata);
        if (request.method === 'POST' && path === '/refresh') {
          const mode = (body as { mode?: unknown } | null)?.mode;
          return answer(response, { refreshed: mode });
        }
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ message: 'Not found' }));
      };
      if (behaviour.delayMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          respond();
        }, behaviour.delayMs);
        timers.add(timer);
      } else {
        respond();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    hostname: '127.0.0.1',
    port,
    calls,
    set: (changes) => {
      behaviour = { ...behaviour, ...changes };
    },
    trust: (token) => keys.add(nodeControlKeyOf(nodeTokenHash(token))),
    forget: () => keys.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port on 127.0.0.1 where nothing listens (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
