import type { ServerResponse } from 'node:http';

/** The node's answer to a request it refuses or cannot serve: a status and `{message}` a player or person can show. */
export function text(response: ServerResponse, status: number, message: string): void {
  if (response.destroyed) return;
  const body = JSON.stringify({ message });
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
}
