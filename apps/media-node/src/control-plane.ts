import { randomUUID } from 'node:crypto';
import { type ApiClient, createApiClient, errorStatus } from '@streamcloud/api-client';
import {
  API_BASE,
  type NodeReport,
  nodeClipRoutes,
  nodeFallbackRoutes,
  nodeMediaRoutes,
  nodeRecordingRoutes,
  nodeRelayRoutes,
  nodeReportRoutes,
  nodeSnapshotRoutes,
  nodeStreamRoutes,
  nodeTranscodeRoutes,
} from '@streamcloud/contract';
import type { MediaPorts } from './config.js';
import type { Logger } from './log.js';

/** A report as the node queues it: the queue gives it its id. */
export type ReportBody = NodeReport extends infer R ? (R extends NodeReport ? Omit<R, 'id'> : never) : never;

/**
 * The node-facing API of the control plane (docs/node-control-api.md), called with the node token through
 * the one typed API client (`@streamcloud/api-client`): paths, bodies and answers are the contract's
 * routes; a failure is an `ApiError` (status 0 when the control plane did not answer within the timeout).
 */
export class ControlPlaneClient {
  private readonly api: ApiClient;

  constructor(baseUrl: string, token: string, timeoutMs = 5000) {
    this.api = createApiClient({ apiBase: `${baseUrl}${API_BASE}`, getToken: () => token, timeoutMs });
  }

  whoami() {
    return this.api.call(nodeReportRoutes.whoami);
  }

  assignedStreams() {
    return this.api.call(nodeStreamRoutes.inputs);
  }

  /** A push to a stream's GSLB name reached this node: the control plane moves the stream here if it may. */
  /** An account's playback signing keys and revoked token ids (for the Signed outputs of its streams here). */
  playbackSigning(accountId: string) {
    return this.api.call(nodeStreamRoutes.playbackSigning, { params: { id: accountId } });
  }

  claimIngress(name: string) {
    return this.api.call(nodeStreamRoutes.claimIngress, { body: { name } });
  }

  snapshotSettings(streamId: string) {
    return this.api.call(nodeSnapshotRoutes.settings, { params: { id: streamId } });
  }

  /** The relays of the node's streams (RTMP keys in clear). */
  relays() {
    return this.api.call(nodeRelayRoutes.relays);
  }

  /** The recordings to run or finish on the streams this node serves, with their storages' credentials. */
  recordings() {
    return this.api.call(nodeRecordingRoutes.recordings);
  }

  /** The clips this node should cut, with their storages' credentials (issue 35). */
  clips() {
    return this.api.call(nodeClipRoutes.clips);
  }

  /** The fallbacks of a stream the node serves, in the order the owner added them. */
  fallbacks(streamId: string) {
    return this.api.call(nodeFallbackRoutes.list, { params: { id: streamId } });
  }

  transcodeConfig(streamId: string) {
    return this.api.call(nodeTranscodeRoutes.get, { params: { id: streamId } });
  }

  setMediaPorts(ports: MediaPorts) {
    return this.api.call(nodeMediaRoutes.ports, { body: { ports } });
  }

  report(reports: NodeReport[]) {
    return this.api.call(nodeReportRoutes.report, { body: { reports } });
  }
}

/** Keeps track of reports from queueing to delivery (the usage journal keeps usage on disk meanwhile). */
export interface ReportLedger {
  /** A report was queued. */
  queued(report: NodeReport): void;
  /** The control plane acknowledged these reports, or they were given up for good. */
  settled(reports: NodeReport[]): void;
  /**
   * Resolves once the ledger's record holds `batch` as it is about to be sent: a record older than what the control
   * plane has may hold, as not yet reported, usage a report of the batch carries (replayed after a crash, billed twice).
   */
  recorded(batch: NodeReport[]): Promise<void>;
}

/** Reports other than usage kept while the control plane is away; beyond, the oldest go (load and metrics first). */
const QUEUE_MAX = 5000;
/** Usage reports kept while the control plane is away (billing: one per stream and report interval). */
const USAGE_QUEUE_MAX = 100_000;
/** Reports per batch (the control plane takes up to NODE_REPORT_BATCH_MAX). */
const BATCH_MAX = 100;

/**
 * The kinds that measure an interval (usage, metrics, load: several each interval, a backlog of them after the control
 * plane was away), as opposed to those that say a state (a stream's, recording's, relay's...).
 */
const MEASUREMENTS: ReadonlySet<NodeReport['kind']> = new Set(['usage', 'metrics', 'load']);
const measures = (report: NodeReport) => MEASUREMENTS.has(report.kind);

/**
 * Sends reports in batches. Each report gets an id (`<boot id>-<sequence>`) when queued; a batch that
 * fails for a reason other than a 400 is resent as it was (the control plane counts repeats as
 * duplicates). A batch takes the states first and fills up with measurements: after the control plane was away,
 * what the node says of its streams (and says again on reconnecting, `onReconnected`) reaches it in the next batch,
 * not behind the backlog of usage, metrics and load. Each of the two goes in the order it was queued (the control
 * plane applies a batch's reports kind by kind anyway). `flushed()` resolves once everything queued so far is
 * delivered or dropped.
 */
export class Reporter {
  private readonly bootId = randomUUID().slice(0, 8);
  private sequence = 0;
  /** States, in the order they were said. */
  private states: NodeReport[] = [];
  /** Usage, metrics and load, in the order they were measured. */
  private measurements: NodeReport[] = [];
  private sending: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly client: ControlPlaneClient,
    private readonly log: Logger,
    private readonly ledger: ReportLedger | null = null,
    private readonly delayMs = 100,
  ) {}

  /**
   * Highest sequence number of the states the control plane has accepted: every state with a lower one was accepted
   * too (states are delivered in order). Measurements queued before it may not be yet.
   */
  delivered = 0;

  /**
   * Called when a batch goes through after deliveries failed (the control plane was away, or the network to
   * it): what the control plane decided meanwhile without hearing the node may need saying again.
   */
  onReconnected: (() => void) | null = null;
  private failing = false;

  /** Queues a report; answers its sequence number. */
  send(report: ReportBody): number {
    const sequence = ++this.sequence;
    if (!this.closed) this.enqueue({ ...report, id: `${this.bootId}-${sequence}` } as NodeReport);
    return sequence;
  }

  /** Queues a report a previous life of the node made, with its id (the control plane ignores it if it has it). */
  resend(report: NodeReport): void {
    if (!this.closed) this.enqueue(report);
  }

  /** Resolves once every report queued before the call was sent (or dropped). */
  async flushed(): Promise<void> {
    for (let attempt = 0; attempt < 50 && (this.queued() > 0 || this.sending); attempt++) {
      if (!this.sending) this.flush();
      await this.sending;
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private queued(): number {
    return this.states.length + this.measurements.length;
  }

  private enqueue(report: NodeReport): void {
    (measures(report) ? this.measurements : this.states).push(report);
    this.ledger?.queued(report);
    this.schedule(this.delayMs);
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, delayMs);
    this.timer.unref();
  }

  /** The batch is done with (accepted, or refused for good). */
  private settle(batch: NodeReport[]): void {
    for (const report of batch) {
      // Reports of a previous life (resent from the journal) have another boot id.
      if (!measures(report) && report.id.startsWith(`${this.bootId}-`))
        this.delivered = Math.max(this.delivered, Number(report.id.slice(this.bootId.length + 1)));
    }
    this.ledger?.settled(batch);
  }

  /**
   * Keeps memory bounded while the control plane is away: beyond QUEUE_MAX reports other than usage, the oldest load
   * and metrics go, then the oldest states; beyond USAGE_QUEUE_MAX usage reports, the oldest usage.
   */
  private trim(): void {
    const usage = this.measurements.filter((report) => report.kind === 'usage').length;
    let dropOther = Math.max(0, this.queued() - usage - QUEUE_MAX);
    let dropUsage = Math.max(0, usage - USAGE_QUEUE_MAX);
    if (dropOther === 0 && dropUsage === 0) return;
    const dropped: NodeReport[] = [];
    this.measurements = this.measurements.filter((report) => {
      const isUsage = report.kind === 'usage';
      if (isUsage ? dropUsage === 0 : dropOther === 0) return true;
      if (isUsage) dropUsage -= 1;
      else dropOther -= 1;
      dropped.push(report);
      return false;
    });
    dropped.push(...this.states.splice(0, dropOther));
    const lost = dropped.filter((report) => report.kind === 'usage').length;
    if (lost > 0) this.log.error(`the control plane has been away too long: ${lost} usage reports were dropped`);
    this.ledger?.settled(dropped);
  }

  private flush(): void {
    if (this.sending || this.queued() === 0) return;
    const batch = this.states.splice(0, BATCH_MAX);
    batch.push(...this.measurements.splice(0, BATCH_MAX - batch.length));
    // The ledger first: a crash must not find it older than what the control plane was sent.
    this.sending = (this.ledger?.recorded(batch) ?? Promise.resolve())
      .then(() => this.client.report(batch))
      .then(
        () => {
          this.settle(batch);
          if (!this.failing) return;
          this.failing = false;
          this.onReconnected?.();
        },
        (error: unknown) => {
          const status = errorStatus(error);
          if (status === 400 || status === 413) {
            this.log.error(`a report batch was refused and dropped: ${String(error)}`);
            this.settle(batch);
          } else {
            this.log.error(`reporting failed, will retry: ${String(error)}`);
            this.failing = true;
            // Back at the head of their queues, as they were.
            this.states.unshift(...batch.filter((report) => !measures(report)));
            this.measurements.unshift(...batch.filter(measures));
            this.trim();
            this.schedule(2000);
          }
        },
      )
      .finally(() => {
        this.sending = null;
        if (this.queued() > 0) this.schedule(this.delayMs);
      });
  }
}
