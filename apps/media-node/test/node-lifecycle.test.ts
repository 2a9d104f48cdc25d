import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Node, NodeReport } from '@streamcloud/contract';
import { describe, expect, it } from 'vitest';
import { startTcpProxy } from '../../api/test/tcp-proxy.js';
import { type Push, pushTestPattern, startMediaNode, waitFor } from './harness.js';
import { startReportTap } from './report-tap.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';

/** A media node's own life: it dies, it restarts. */
const world = useMediaNode();
const { api, createStream, getStream, messages, status } = streamsOf(world);

/** The world's own node takes no new streams (disabled, closed): the node a test starts takes them. */
const takeNoNewStreams = () =>
  api('PUT', `/nodes/${world.node.id}`, {
    name: 'media-1',
    connection: { protocol: 'HTTP', hostname: '127.0.0.1', port: world.node.port },
    enabled: false,
    opened: false,
  });

describe('a media node that dies', () => {
  it('takes its streams out of Ingestion within the silence bound while the control plane goes on', async () => {
    const doomed = await startMediaNode(world.plane, 'media-doomed');
    // Only the doomed node takes new streams now.
    await takeNoNewStreams();
    const stream = await createStream({ format: 'RTMP' });
    expect(stream.nodeId).toBe(doomed.id);
    const push = pushTestPattern(uriOf(stream), 'flv', 60);
    await status(stream.id, 'Ingestion');
    const killedAt = Date.now();
    await doomed.kill();
    const after = await waitFor(
      () => getStream(stream.id),
      (s) => s.status !== 'Ingestion',
      15_000,
      'leaving Ingestion',
    );
    expect(after.status).toBe('Error');
    expect(after.statusMessages[0]?.text).toMatch(/^Node media-doomed stopped reporting for 4 s/);
    expect(Date.now() - killedAt).toBeLessThan(12_000);
    push.stop();
    expect((await fetch(`${world.plane.url}/readyz`)).status).toBe(200);
    expect((await api('GET', '/inputs')).status).toBe(200);
  });
});

describe('a network cut between a node and the control plane', () => {
  it('longer than the silence time: its streams go to Error, and are Ingestion again once its reports go through, ahead of the backlog', async () => {
    const proxy = await startTcpProxy(Number(new URL(world.plane.url).port));
    // Between the node and the proxy (the network the test cuts): the order its report batches went in.
    const tap = await startReportTap(`http://127.0.0.1:${proxy.port}`);
    const cut = await startMediaNode(world.plane, 'media-cut', {
      CONTROL_PLANE_URL: tap.url,
      // Load, metrics and usage 20 times a second (the least the node takes): the cut leaves a backlog of several
      // batches (100 reports each).
      REPORT_INTERVAL_MS: '50',
    });
    let push: Push | null = null;
    try {
      await takeNoNewStreams();
      const stream = await createStream({ format: 'RTMP' });
      expect(stream.nodeId).toBe(cut.id);
      push = pushTestPattern(uriOf(stream), 'flv', 60);
      await status(stream.id, 'Ingestion');
      await proxy.cut();
      await status(stream.id, 'Error', 15_000);
      const sentBefore = tap.batches.length;
      const restoredAt = Date.now();
      await proxy.restore();
      // The push went on all along: the node says so again as soon as a report goes through.
      await status(stream.id, 'Ingestion', 10_000);
      expect(await messages(stream.id)).toContain('Node media-cut reports the stream Ingestion again');

      // The node's statuses, said again, reached the control plane ahead of the usage, metrics and load it measured
      // during the cut: a backlog of several batches (100 reports each), which they do not wait behind.
      const measuredBefore = (report: NodeReport) => report.at !== undefined && Date.parse(report.at) < restoredAt;
      const measurement = (report: NodeReport) => ['usage', 'metrics', 'load'].includes(report.kind);
      // Delivered once a measurement made after the repair went: measurements go in the order they were made, so
      // the cut's backlog went before it (the restated statuses, ahead of it, come first and do not tell that).
      const delivered = await waitFor(
        async () => tap.batches.slice(sentBefore).filter((batch) => batch.status === 200),
        (batches) =>
          batches.some((batch) => batch.reports.some((report) => measurement(report) && !measuredBefore(report))),
        20_000,
        'the backlog of the cut delivered',
      );
      const backlog = delivered.filter((batch) => batch.reports.some(measuredBefore));
      // Two batches at least (how many the cut fills depends on what the node measured meanwhile): behind them, as
      // before, the restated status would come third or later.
      expect(backlog.length).toBeGreaterThanOrEqual(2);
      // The first batch through tells the node the cut is over; the next one says the push goes on.
      const restated = delivered.findIndex((batch) =>
        batch.reports.some(
          (report) => report.kind === 'stream-state' && report.streamId === stream.id && report.status === 'Ingestion',
        ),
      );
      expect(restated).toBeGreaterThanOrEqual(0);
      expect(restated).toBeLessThanOrEqual(1);
      // Billing's reports all went, once each, in the order they were counted.
      const usage = tap.batches
        .filter((batch) => batch.status === 200)
        .flatMap((batch) => batch.reports.filter((report) => report.kind === 'usage'))
        .map((report) => Number(report.id.split('-').at(-1)));
      expect(usage.length).toBeGreaterThan(20);
      expect(usage).toEqual([...new Set(usage)].sort((a, b) => a - b));
    } finally {
      push?.stop();
      await cut.stop();
      await tap.close();
      await proxy.close();
    }
  });
});

describe("a media node's health", () => {
  it("comes with its load: the free space of its data folder, its encoders' CPU, its upload backlog", async () => {
    const node = await waitFor(
      async () => (await api<Node>('GET', `/nodes/${world.node.id}`)).body,
      (body) => body.load?.health != null,
      10_000,
      'a load report with the health',
    );
    const health = node.load?.health;
    if (!health) throw new Error('no health');
    // The harness gives each node its own data folder (runMediaNode): that is the disk measured.
    expect(health.disks.map((disk) => disk.path)).toEqual([expect.stringContaining('streamcloud-media-node-')]);
    expect(health.disks[0]?.totalBytes).toBeGreaterThan(health.disks[0]?.freeBytes ?? 0);
    expect(health.uploadBacklog).toEqual({ files: 0, bytes: 0 });
  });
});

describe('temporary folders', () => {
  it('removes its own on exit, and on start the ones killed nodes left, never a live one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'streamcloud-tmp-test-'));
    // Nodes started without MEDIA_DATA_DIR make theirs in TMPDIR.
    const env = { MEDIA_DATA_DIR: '', TMPDIR: dir };
    const nodeFolders = () =>
      readdirSync(dir)
        .filter((name) => /^streamcloud-media-[A-Za-z0-9]{6}$/.test(name))
        .sort();
    try {
      // A node folder of a process that runs (this test's), and a folder of the same prefix that is no node's.
      mkdirSync(join(dir, 'streamcloud-media-LiVe01'));
      writeFileSync(
        join(dir, 'streamcloud-media-LiVe01', 'owner.json'),
        JSON.stringify({ pid: process.pid, startTime: null }),
      );
      mkdirSync(join(dir, 'streamcloud-media-test-other'));

      const killed = await startMediaNode(world.plane, 'media-killed', env);
      const [killedFolder] = nodeFolders().filter((name) => name !== 'streamcloud-media-LiVe01');
      expect(killedFolder).toBeDefined();
      await killed.kill();
      // Killed, it could not clean up.
      expect(nodeFolders()).toEqual(['streamcloud-media-LiVe01', killedFolder].sort());

      const next = await startMediaNode(world.plane, 'media-next', env);
      const folders = nodeFolders();
      expect(folders).toHaveLength(2);
      expect(folders).toContain('streamcloud-media-LiVe01');
      expect(folders).not.toContain(killedFolder);
      await next.stop();
      expect(nodeFolders()).toEqual(['streamcloud-media-LiVe01']);
      expect(existsSync(join(dir, 'streamcloud-media-test-other'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
