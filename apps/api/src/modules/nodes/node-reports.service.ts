import {
  NodeReport,
  type NodeReportBatch,
  type NodeReportBatchResult,
  type NodeReportKind,
} from '@streamcloud/contract';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';

/** How long a node's report ids are remembered: a node must not resend a report later than this. */
export const REPORT_ID_RETENTION_MS = 24 * 60 * 60 * 1000;

/** What a report handler is given; a handler declares the part of the unit of work it uses as `Uow`. */
export interface ReportContext<Uow = UnitOfWork> {
  /**
   * The batch's unit of work, on its transaction. A handler must use it (and nothing else) for every read
   * and write: the batch is applied all or nothing, and on PGlite a query outside it would wait forever.
   */
  uow: Uow;
  node: NodeIdentity;
  receivedAt: Date;
}

/**
 * When a report says it was measured: its `at`, but never later than its arrival (a node's clock may run
 * ahead of ours; a time in the future would hide later reports), and its arrival when it says nothing.
 */
export function measuredAt(context: Pick<ReportContext<unknown>, 'receivedAt'>, at: string | undefined): Date {
  if (!at) return context.receivedAt;
  const measured = new Date(at);
  return measured.getTime() > context.receivedAt.getTime() ? context.receivedAt : measured;
}

export type ReportOf<K extends NodeReportKind> = Extract<NodeReport, { kind: K }>;

/** Applies the new reports of one kind from one batch, in the order the node sent them. */
export type ReportHandler<K extends NodeReportKind> = (context: ReportContext, reports: ReportOf<K>[]) => Promise<void>;

export interface NodeReportsServiceDeps {
  /** The whole unit of work: each batch runs on a transaction of it, handed to the handlers. */
  uow: UnitOfWork;
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

  /** The kinds of the contract no module handles (the app refuses to start with any). */
  unhandledKinds(): NodeReportKind[] {
    return NodeReport.options.map((option) => option.shape.kind.value).filter((kind) => !this.handlers.has(kind));
  }

  async receive(node: NodeIdentity, batch: NodeReportBatch): Promise<NodeReportBatchResult> {
    const receivedAt = this.deps.clock.now();
    // The first of several reports with one id counts; the others are duplicates.
    const distinct = new Map<string, NodeReport>();
    for (const report of batch.reports) if (!distinct.has(report.id)) distinct.set(report.id, report);

    return this.deps.uow.transaction(async (uow) => {
      const reports = uow.nodeReports;
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
      const context: ReportContext = { uow, node, receivedAt };
      for (const [kind, list] of byKind) {
        const handler = this.handlers.get(kind);
        if (!handler) throw new Error(`No handler is registered for ${kind} reports`);
        await handler(context, list);
      }
      return { accepted: fresh.size, duplicates: batch.reports.length - fresh.size };
    });
  }
}
