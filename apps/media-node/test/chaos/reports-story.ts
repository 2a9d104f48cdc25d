import type { NodeReport } from '@streamcloud/contract';
import type { ReportTap } from '../report-tap.js';
import { seconds } from './world.js';

/** A stream-state report saying a stream of `streamIds` is Ingestion (what a node says again once its reports go through). */
const saysIngestion = (streamIds: string[]) => (report: NodeReport) =>
  report.kind === 'stream-state' && streamIds.includes(report.streamId) && report.status === 'Ingestion';

/**
 * What the node's report batches did after `since` (a network cut's repair), told under the report: when the first went
 * through, in which the pushes' Ingestion was said, and how long the backlog of what it measured before took.
 */
export function reportsStory(tap: ReportTap, since: number, streamIds: string[]): string {
  const delivered = tap.batches.filter((batch) => batch.sentAt >= since && batch.status === 200);
  const at = (ms: number | undefined) => (ms === undefined ? 'never' : `+${seconds(ms - since)}`);
  const restated = delivered.findIndex((batch) => batch.reports.some(saysIngestion(streamIds)));
  const backlog = delivered.filter((batch) => batch.reports.some((report) => Date.parse(report.at ?? '') < since));
  const slowest = Math.max(0, ...delivered.map((batch) => batch.answeredAt - batch.sentAt));
  return (
    `the node's reports: the first batch through answered ${at(delivered[0]?.answeredAt)}; ` +
    `the pushes said Ingestion in batch ${restated + 1} (answered ${at(delivered[restated]?.answeredAt)}); ` +
    `what it measured before, ${backlog.reduce((sum, batch) => sum + batch.reports.length, 0)} reports in ` +
    `${backlog.length} batches, delivered by ${at(backlog.at(-1)?.answeredAt)}; the slowest batch took ${seconds(slowest)}`
  );
}
