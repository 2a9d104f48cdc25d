import { NODE_UNREACHABLE, type NodeRefreshMode } from '@streamcloud/contract';
import { nodeControlKeyOf, signNodeControl } from '@streamcloud/contract/node-control-credential';
import { type GuardedFetch, isUnreachable } from '@streamcloud/net-guard';
import { AppError } from '../../lib/errors.js';
import { DEFAULT_OUTBOUND } from '../../lib/outbound.js';

/** Where the control plane reaches a node's control API. */
export interface NodeTarget {
  name: string;
  protocol: string;
  hostname: string;
  port: number;
  /** The SHA-256 of the node's token (all the control plane keeps of it): the key its calls are signed with. */
  token_hash: string;
}

export interface NodeControlOptions {
  /** The whole call, body included; 3 s by default. */
  timeoutMs?: number;
  /** Larger answers are refused; 1 MB by default. */
  maxAnswerBytes?: number;
  /** The guarded fetch for the operator's destinations (lib/outbound.ts). */
  fetch?: GuardedFetch;
}

export const NODE_CONTROL_TIMEOUT_MS = 3000;
const MAX_ANSWER_BYTES = 1024 * 1024;

/** Why a call failed, in words fit for the 502 message. */
class Unreachable extends Error {}

/**
 * The control plane's side of the node control API (docs/node-control-api.md):
 * `GET /metadata` answers a JSON object, `POST /refresh {mode}` answers any JSON (or nothing).
 * Every call is signed for that node (`Authorization: Bearer nc1.…`, node-control-credential.ts): the node
 * answers nobody else. Every failure — refused, unknown host, timeout, non-2xx, not JSON — becomes a 502
 * `NODE_UNREACHABLE` naming the node; a call never outlives the timeout.
 */
export class NodeControlClient {
  private readonly timeoutMs: number;
  private readonly maxAnswerBytes: number;
  private readonly fetch: GuardedFetch;

  constructor(options: NodeControlOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? NODE_CONTROL_TIMEOUT_MS;
    this.maxAnswerBytes = options.maxAnswerBytes ?? MAX_ANSWER_BYTES;
    this.fetch = options.fetch ?? DEFAULT_OUTBOUND.operator.fetch;
  }

  async metadata(node: NodeTarget): Promise<Record<string, unknown>> {
    const answer = await this.call(node, 'GET', '/metadata');
    if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
      throw unreachable(node, 'its metadata is not a JSON object');
    }
    return answer as Record<string, unknown>;
  }

  async refresh(node: NodeTarget, mode: NodeRefreshMode): Promise<unknown> {
    return this.call(node, 'POST', '/refresh', { mode });
  }

  private async call(node: NodeTarget, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    try {
      const url = controlUrl(node, path);
      const sent = body === undefined ? '' : JSON.stringify(body);
      const credential = signNodeControl(nodeControlKeyOf(node.token_hash), { method, path, body: sent });
      const response = await this.fetch(url, {
        method,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${credential}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: sent }),
        redirect: 'error',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new Unreachable(`it answered HTTP ${response.status}`);
      }
      const text = await readLimited(response, this.maxAnswerBytes);
      if (text.trim() === '') return null;
      try {
        return JSON.parse(text) as unknown;
      } catch {
        throw new Unreachable('its answer is not JSON');
      }
    } catch (error) {
      throw unreachable(node, this.reason(error));
    }
  }

  private reason(error: unknown): string {
    if (error instanceof Unreachable) return error.message;
    const name = (error as { name?: string }).name;
    if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${formatDuration(this.timeoutMs)}`;
    const cause = (error as { cause?: { code?: string; message?: string; name?: string } }).cause;
    const code = (error as { code?: string }).code ?? cause?.code;
    if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection closed by the node';
    // Refused, unknown, unreachable or an address not allowed (net-guard) read alike.
    if (isUnreachable(error)) return 'host unreachable';
    if (cause?.name === 'TimeoutError') return `no answer within ${formatDuration(this.timeoutMs)}`;
    return cause?.message ?? (error instanceof Error ? error.message : String(error));
  }
}

function unreachable(node: NodeTarget, reason: string): AppError {
  return new AppError(
    502,
    NODE_UNREACHABLE,
    `Node ${node.name} (${node.hostname}:${node.port}) is unreachable: ${reason}`,
  );
}

/** `{protocol}://{hostname}:{port}{path}`; the protocol is HTTP or HTTPS, in any case. */
function controlUrl(node: NodeTarget, path: string): URL {
  const scheme = node.protocol.trim().toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') {
    throw new Unreachable(`its protocol ${node.protocol} is not HTTP or HTTPS`);
  }
  const host = node.hostname.includes(':') && !node.hostname.startsWith('[') ? `[${node.hostname}]` : node.hostname;
  try {
    return new URL(`${scheme}://${host}:${node.port}${path}`);
  } catch {
    throw new Unreachable('its address is not valid');
  }
}

async function readLimited(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new Unreachable(`its answer is larger than ${Math.round(maxBytes / 1024)} KB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const formatDuration = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
