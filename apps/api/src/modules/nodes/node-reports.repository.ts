import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/**
 * Whether the node whose id is the column `nodeId` (e.g. 'n.id') sent any report since `since`: every
 * silence check (streams, jobs, outputs) asks this of node_reports, where each heartbeat leaves a row.
 */
export const nodeReportedSince = (nodeId: string, since: Date) =>
  sql<boolean>`exists (select 1 from node_reports nr where nr.node_id = ${sql.ref(nodeId)} and nr.received_at >= ${since})`;

/**
 * Whether the node of alias `alias` (e.g. 'n') has been silent since `since`: registered before it and no report
 * since. A node registered within the silence time has not had the chance to report and is not silent yet.
 */
export const nodeSilentSince = (alias: string, since: Date) =>
  sql<boolean>`(${sql.ref(`${alias}.created_at`)} < ${since} and not ${nodeReportedSince(`${alias}.id`, since)})`;

/** The report ids each node has sent, for idempotency. */
export class NodeReportsRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records report ids not seen before from this node and answers those that were new; ids already
   * recorded are left alone. The ids must be distinct.
   */
  async claim(nodeId: string, reports: Array<{ id: string; kind: string }>, receivedAt: Date): Promise<Set<string>> {
    if (reports.length === 0) return new Set();
    const rows = await this.db
      .insertInto('node_reports')
      .values(
        reports.map((report) => ({
          node_id: nodeId,
          report_id: report.id,
          kind: report.kind,
          received_at: receivedAt,
        })),
      )
      .onConflict((oc) => oc.columns(['node_id', 'report_id']).doNothing())
      .returning('report_id')
      .execute();
    return new Set(rows.map((row) => row.report_id));
  }

  async prune(nodeId: string, before: Date): Promise<void> {
    await this.db.deleteFrom('node_reports').where('node_id', '=', nodeId).where('received_at', '<', before).execute();
  }
}
