import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countingRelay, playRtmp, pushTestPattern, type RunningNode, runMediaNode, waitFor } from './harness.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';

/** Billing survives a crash: a node killed with SIGKILL sends the usage it journaled once it runs again, once. */
/** The node's data directory, kept across its restart. */
const dataDir = mkdtempSync(join(tmpdir(), 'streamcloud-usage-crash-'));
let plane: LossyControlPlane;
const world = useMediaNode(
  'usage-crash',
  {},
  {
    dataDir,
    controlPlaneFor: async (url) => {
      plane = await lossyControlPlane(url);
      return plane.url;
    },
  },
);
const { createStream, createOutput, status, usage } = streamsOf(world);
afterAll(async () => {
  await plane?.close();
});

interface LossyControlPlane {
  url: string;
  /** While on, every report batch reaches the control plane and its answer is lost (the connection cut). */
  loseReportAnswers: boolean;
  lostAnswers: number;
  close(): Promise<void>;
}

/** The control plane as the node sees it: requests passed on, answers to report batches lost on demand. */
async function lossyControlPlane(target: string): Promise<LossyControlPlane> {
  const proxy: LossyControlPlane & { server?: Server } = {
    url: '',
    loseReportAnswers: false,
    lostAnswers: 0,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.server?.closeAllConnections();
        proxy.server?.close(() => resolve());
      }),
  };
  proxy.server = createServer((request, response) => {
    void (async () => {
      const body = Buffer.concat(await request.toArray());
      const answer = await fetch(`${target}${request.url}`, {
        method: request.method,
        headers: {
          authorization: request.headers.authorization ?? '',
          'content-type': request.headers['content-type'] ?? 'application/json',
        },
        body: body.length > 0 ? body : undefined,
      });
      const text = await answer.text();
      if (proxy.loseReportAnswers && request.url?.endsWith('/node/reports')) {
        proxy.lostAnswers += 1;
        response.destroy();
        return;
      }
      response.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
      response.end(text);
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => proxy.server?.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
  return proxy;
}

/** What the node's usage journal holds for a stream: bytes uploaded by its publishers and sent to its viewers. */
function journaled(streamId: string): { upload: number; download: number } {
  const totals = { upload: 0, download: 0 };
  let content: { reports: UsageLike[]; pending: UsageLike[] };
  try {
    content = JSON.parse(readFileSync(join(dataDir, 'usage', 'journal.json'), 'utf8'));
  } catch {
    return totals;
  }
  for (const report of [...content.reports, ...content.pending]) {
    if (report.streamId !== streamId) continue;
    for (const session of report.incoming ?? []) totals.upload += session.upload;
    totals.download += report.outgoing?.download ?? 0;
  }
  return totals;
}

interface UsageLike {
  streamId: string;
  incoming?: { upload: number }[];
  outgoing?: { download: number };
}

describe('a node killed while a stream is pushed and watched', () => {
  it('bills what it counted before the kill once it runs again, within 0.5 %, and never twice', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const output = await createOutput(stream.id, 'RTMP');
    // From here on the control plane applies every report and the node never hears so: all of it is
    // resent after the restart, and must be billed once.
    plane.loseReportAnswers = true;
    const publisher = await countingRelay(world.node.rtmpPort);
    const push = pushTestPattern(uriOf(stream).replace(`:${world.node.rtmpPort}/`, `:${publisher.port}/`), 'flv', 60);
    await status(stream.id, 'Ingestion');
    const viewer = await countingRelay(world.node.rtmpPort);
    const play = playRtmp((output.connection?.uri ?? '').replace(`:${world.node.rtmpPort}/`, `:${viewer.port}/`), 60);
    // A few seconds of picture reach the viewer.
    await waitFor(
      async () => viewer.bytesBack(),
      (bytes) => bytes > 60_000,
      20_000,
      'the viewer playing',
    );
    expect(plane.lostAnswers).toBeGreaterThan(0);

    // The publisher's bytes stop (its connection stays open): once the node has them all on disk, it dies.
    publisher.hold();
    const sent = publisher.bytes();
    await waitFor(
      async () => ({ journal: journaled(stream.id), viewed: viewer.bytesBack() }),
      ({ journal, viewed }) => journal.upload === sent && journal.download === viewed,
      10_000,
      `the node's journal to hold the ${sent} bytes pushed and those viewed`,
    );
    const viewed = viewer.bytesBack();
    const node: RunningNode = world.node;
    await node.kill();
    push.stop();
    play.stop();
    await Promise.all([publisher.close(), viewer.close()]);

    plane.loseReportAnswers = false;
    world.node = await runMediaNode(plane.url, node, { MEDIA_DATA_DIR: dataDir });
    const within = (billed: number, counted: number) => Math.abs(billed - counted) / counted < 0.005;
    await waitFor(
      () => usage(stream.id),
      (billed) => within(billed.upload, sent) && within(billed.outgoing, viewed),
      20_000,
      `billing of the ${sent} bytes pushed and ${viewed} viewed`,
    );
    // Everything is acknowledged (the journal is empty), and billed once.
    await waitFor(
      async () => journaled(stream.id),
      (left) => left.upload === 0 && left.download === 0,
      10_000,
      'the journal to be emptied',
    );
    const billed = await usage(stream.id);
    expect(within(billed.upload, sent)).toBe(true);
    expect(within(billed.outgoing, viewed)).toBe(true);
  }, 120_000);
});
