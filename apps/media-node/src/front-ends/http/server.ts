import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerOf, verifyNodeControl } from '@streamcloud/contract/node-control-credential';
import { text } from '../../http-answer.js';
import type { Logger } from '../../log.js';
import { CORS_HEADERS, preflightHeaders, type RouteName, routeOf } from './routes.js';

/** The largest request body any route reads (an SDP offer, a refresh call). */
const BODY_LIMIT = 256 * 1024;

export interface RouteRequest {
  url: URL;
  segments: string[];
  /** The request's body, read (at most BODY_LIMIT) before the credential is checked: a control call signs it. */
  body: Buffer;
}

export type RouteHandler = (request: IncomingMessage, response: ServerResponse, asked: RouteRequest) => Promise<void>;

/**
 * The node's HTTP port: the route table (routes.ts) in front of each route's handler — the control API
 * (the control plane's only, signed with the node control credential), HLS, WHIP, WHEP and nginx's hooks.
 */
export class NodeHttpServer {
  port = 0;
  private server: Server | null = null;

  constructor(
    /** The key the control plane signs its calls to this node with (node-control-credential.ts). */
    private readonly controlKey: string,
    /** Who answers a route now (FrontEnds.route: the front end that owns it, or why it does not run). */
    private readonly handlerOf: (name: RouteName) => RouteHandler,
    private readonly log: Logger,
  ) {}

  async listen(port: number, host: string): Promise<number> {
    const server = createServer((request, response) => {
      this.route(request, response).catch((error: unknown) => {
        this.log.error(
          `${request.method} ${request.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        if (!response.headersSent) text(response, 500, 'Internal error');
        else response.destroy();
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    return this.port;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Every request: its route in the table (404 when none), CORS where the table says so (and preflights of those
   * routes only), its methods (405), and the control plane's credential on control routes (401) — then its handler.
   */
  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://node');
    const segments = url.pathname.split('/').filter(Boolean);
    const method = request.method ?? 'GET';
    const found = routeOf(segments);
    if (!found) return text(response, 404, 'Not found');
    const { name, route } = found;
    if (route.cors) for (const [header, value] of Object.entries(CORS_HEADERS)) response.setHeader(header, value);
    if (method === 'OPTIONS' && route.cors) {
      response.writeHead(204, preflightHeaders(route));
      response.end();
      return;
    }
    if (!route.methods.includes(method)) {
      if (route.access === 'internal') return text(response, 404, 'Not found');
      response.setHeader('allow', route.methods.join(', '));
      return text(response, 405, `Use ${route.methods.join(' or ')}`);
    }
    const body = await readBody(request);
    if (route.access === 'control') {
      const call = { method, path: request.url ?? '/', body };
      if (!verifyNodeControl(this.controlKey, call, bearerOf(request.headers.authorization))) {
        response.setHeader('www-authenticate', 'Bearer');
        return text(response, 401, 'The node control API answers the control plane only (node control credential)');
      }
    }
    return this.handlerOf(name)(request, response, { url, segments, body });
  }
}

/** What a route's path names after its own segment (`/whep/<output>/<session>`: output, session), URL-decoded. */
export function pathAfterRoute(segments: readonly string[]): string[] {
  return segments.slice(1).map(safeDecode);
}

/** A path segment, URL-decoded (as it came when it does not decode). */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function json(response: ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) });
  response.end(data);
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) {
        reject(new Error('request body too large'));
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
