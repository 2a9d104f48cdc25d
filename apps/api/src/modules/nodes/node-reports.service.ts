import type { NodeReport, NodeReportBatch, NodeReportBatchResult, NodeReportKind } from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { NodeReportsRepository } from './node-reports.repository.js';

/** How long a node's report ids are remembered: a node must not resend a report later than this. */
export const REPORT_ID_RETENTION_MS = 24 * 60 * 60 * 1000;

export interface ReportContext {
  /**
   * The batch's transaction. A handler must use it (and nothing else) for every read and write:
   * the batch is applied all or nothing, and on PGlite a query outside it would wait forever.
   */
  db: Db;
  node: NodeIdentity;
  receivedAt: Date;
}

export type ReportOf<K extends NodeReportKind> = Extract<NodeReport, { kind: K }>;

/** Applies the new reports of one kind from one batch, in the order the node sent them. */
export type ReportHandler<K extends NodeReportKind> = (context: ReportContext, reports: ReportOf<K>[]) => Promise<void>;

export interface NodeReportsServiceDeps {
  db: Db;
  clock: Clock;
}

/**
 * Receives report batches from nodes. Each kind of report is applied by the handler a module registered
 * for it (`registerReportHandler`), so new kinds plug in without changing this service. A report id
 * already received from the node is a duplicate and is not applied again.
 */
export class NodeReportsService {
  private readonly handlers = new Map<NodeReportKind, ReportHandler<NodeReportKind>>();

  constructor(private readonly deps: NodeReportsServiceDeps) {}

  registerReportHandler<K extends NodeReportKind>(kind: K, handler: ReportHandler<K>): void {
    if (this.handlers.has(kind)) throw new Error(`A handler for ${kind} reports is already registered`);
    this.handlers.set(kind, handler as unknown as ReportHandler<NodeReportKind>);
  }

  async receive(node: NodeIdentity, batch: NodeReportBatch): Promise<NodeReportBatchResult> {
    const receivedAt = this.deps.clock.now();
    // The first of several reports with one id counts; the others are duplicates.
    const distinct = new Map<string, NodeReport>();
    for (const report of batch.reports) if (!distinct.has(report.id)) distinct.set(report.id, report);

    return this.deps.db.transaction().execute(async (trx) => {
      const reports = new NodeReportsRepository(trx);
      await reports.prune(node.id, new Date(receivedAt.getTime() - REPORT_ID_RETENTION_MS));
      const fresh = await reports.claim(
        node.id,
        [...distinct.values()].map((report) => ({ id: report.id, kind: report.kind })),
        receivedAt,
      );
      const byKind = new Map<NodeReportKind, NodeReport[]>();
      for (const report of distinct.values()) {
        if (!fresh.has(report.id)) continue;
        const list = byKind.get(report.kind) ?? [];
        list.push(report);
        byKind.set(report.kind, list);
      }
      const context: ReportContext = { db: trx, node, receivedAt };
      for (const [kind, list] of byKind) {
        const handler = this.handlers.get(kind);
        if (!handler) throw new Error(`No handler is registered for ${kind} reports`);
        await handler(context, list);
      }
      return { accepted: fresh.size, duplicates: batch.reports.length - fresh.size };
    });
  }
}
