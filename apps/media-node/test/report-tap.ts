import { createServer, type IncomingMessage } from 'node:http';
import type { NodeReport } from '@streamcloud/contract';

/** A batch of reports a node sent (`POST /api/v1/node/reports`), and how the control plane answered it. */
export interface TappedBatch {
  /** The control plane's status; 0 when it did not answer (the network behind the tap cut). */
  status: number;
  reports: NodeReport[];
  /** When the node sent it, and when the control plane answered (or the tap gave up). */
  sentAt: number;
  answeredAt: number;
}

/**
 * An HTTP hop on 127.0.0.1 between a media node and its control plane that forwards every request as it is and
 * keeps the node's report batches in the order they went, with their answers: what a test reads to see in which
 * order the node's reports reached the control plane. A request the control plane does not answer (the network
 * behind cut) has its connection reset, as the node would see it without the tap.
 */
export interface ReportTap {
  url: string;
  batches: TappedBatch[];
  close(): Promise<void>;
}

const bodyOf = async (request: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Headers a hop does not pass on (fetch sets its own; the answer's body is decoded already). */
const HOP_HEADERS = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export async function startReportTap(upstream: string): Promise<ReportTap> {
  const batches: TappedBatch[] = [];
  const server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    const sentAt = Date.now();
    const reportBatch = request.method === 'POST' && request.url === '/api/v1/node/reports';
    const tapped = (status: number) =>
      batches.push({ status, reports: JSON.parse(body.toString()).reports, sentAt, answeredAt: Date.now() });
    const headers = Object.entries(request.headers).filter(([name]) => !HOP_HEADERS.has(name)) as [string, string][];
    try {
      const answer = await fetch(`${upstream}${request.url}`, {
        method: request.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body: new Uint8Array(body) } : {}),
        signal: AbortSignal.timeout(10_000),
      });
      const answered = Buffer.from(await answer.arrayBuffer());
      if (reportBatch) tapped(answer.status);
      const passed = [...answer.headers].filter(([name]) => !HOP_HEADERS.has(name) && name !== 'content-encoding');
      response.writeHead(answer.status, Object.fromEntries(passed));
      response.end(answered);
    } catch {
      if (reportBatch) tapped(0);
      request.socket.destroy();
    }
  });
  server.keepAliveTimeout = 1000;
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
  return {
    url: `http://127.0.0.1:${port}`,
    batches,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
