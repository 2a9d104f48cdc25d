import { measuredAt, type ReportHandler } from './node-reports.service.js';
import type { LoadSample } from './nodes.repository.js';

/** How much load history is kept per node: enough for the autoscaler's longest window (300 s). */
export const LOAD_HISTORY_MS = 60 * 60 * 1000;

/**
 * Load reports become load samples. A sample time in the future (a node's clock ahead of ours) is taken
 * as the time of arrival, so it cannot hide later samples; two samples at one instant: the later wins.
 */
export const handleLoadReports: ReportHandler<'load'> = async (context, reports) => {
  const { uow, node, receivedAt } = context;
  const byInstant = new Map<number, LoadSample>();
  for (const report of reports) {
    const at = measuredAt(context, report.at);
    byInstant.set(at.getTime(), {
      at,
      cpu_percent: report.cpuPercent,
      bandwidth_mbps: report.bandwidthMbps,
      sessions: report.sessions,
      health: report.health ? JSON.stringify(report.health) : null,
    });
  }
  await uow.nodes.upsertLoadSamples(node.id, [...byInstant.values()]);
  await uow.nodes.pruneLoadSamples(node.id, new Date(receivedAt.getTime() - LOAD_HISTORY_MS));
};
