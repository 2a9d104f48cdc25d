import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver on 127.0.0.1 for tests and benchmarks: it records every request it gets and answers
 * with the statuses it is told (200 once they run out), or holds requests unanswered. Depends on node:http
 * only, so e2e specs and benchmarks can import it too.
 */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When it arrived (Date.now()). */
  at: number;
  /** The status it was answered (undefined while held). */
  status?: number;
}

export interface WebhookReceiver {
  /** The receiver's base URL, e.g. `http://127.0.0.1:41234`; any path is accepted. */
  url: string;
  received: ReceivedWebhook[];
  /** The parsed bodies, in order of arrival. */
  events(): Array<{ type: string; id: string; occurredAt: string; data: Record<string, unknown> }>;
  /** The next requests get these statuses, in order. */
  answer(...statuses: number[]): void;
  /** Every request of the next `ms` is answered `status` (a receiver down for a while), then 200 again. */
  failFor(ms: number, status?: number): void;
  /** Requests from now on are kept open, unanswered, until `release()` answers them (with `answer`'s statuses). */
  hold(): void;
  release(): void;
  /** Resolves once at least `count` requests arrived (polling, within `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const statuses: number[] = [];
  const held = new Set<ServerResponse>();
  let holding = false;
  let failing = { until: 0, status: 500 };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const webhook: ReceivedWebhook = {
        path: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(webhook);
      if (holding) {
        held.add(response);
        response.on('close', () => held.delete(response));
        return;
      }
      webhook.status = Date.now() < failing.until ? failing.status : (statuses.shift() ?? 200);
      response.writeHead(webhook.status, { 'content-type': 'text/plain' });
      response.end('ok');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    events: () => received.map((request) => JSON.parse(request.body)),
    answer: (...next) => {
      statuses.push(...next);
    },
    failFor: (ms, status = 500) => {
      failing = { until: Date.now() + ms, status };
    },
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const response of held) {
        response.writeHead(statuses.shift() ?? 200);
        response.end();
      }
      held.clear();
    },
    waitFor: async (count, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`The receiver got ${received.length} of ${count} requests`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return received.slice(0, count);
    },
    close: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
