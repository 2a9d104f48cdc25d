import { ApiError } from '@streamcloud/api-client';
import type { ControlPlaneClient, Reporter } from './control-plane.js';
import type { Logger } from './log.js';
import type { StreamDirectory } from './streams/directory.js';
import type { StreamManager } from './streams/manager.js';

export interface AssignmentsOptions {
  client: ControlPlaneClient;
  reporter: Reporter;
  directory: StreamDirectory;
  manager: StreamManager;
  log: Logger;
}

/**
 * The streams the control plane assigns this node: read every POLL_INTERVAL_MS (and at once for a push or play
 * naming an unknown stream or output, or a GSLB name pushed here), applied to the directory, and acted on by the
 * stream manager (Stop, cleared sessions, changed configurations).
 */
export class Assignments {
  private refreshing: Promise<void> | null = null;
  private queuedRefresh: Promise<void> | null = null;
  private lastRefreshAt = 0;
  /** Reads of the assigned streams, numbered as sent, and the newest one applied to the directory. */
  private pollsSent = 0;
  private pollApplied = 0;

  constructor(private readonly o: AssignmentsOptions) {}

  /** Asks the control plane for the stream of a GSLB name pushed here; null once this node serves it, else why not. */
  async claimIngress(name: string): Promise<string | null> {
    try {
      await this.o.client.claimIngress(name);
    } catch (error) {
      if (error instanceof ApiError && error.status !== 0) return error.serverMessage ?? `answered ${error.status}`;
      this.o.log.error(`claiming ${name} failed: ${String(error)}`);
      return 'the control plane did not answer';
    }
    await this.refreshNow();
    return null;
  }

  /**
   * An extra read of the assigned streams for a push or play naming an unknown stream or output: it starts
   * after the call (a read already going on may have missed what was created a moment ago), at most
   * one at a time and twice a second; callers meanwhile share it.
   */
  refreshNow(): Promise<void> {
    this.queuedRefresh ??= (async () => {
      await this.refreshing;
      const wait = this.lastRefreshAt + 500 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      this.queuedRefresh = null;
      this.lastRefreshAt = Date.now();
      const refreshing = this.poll().finally(() => {
        if (this.refreshing === refreshing) this.refreshing = null;
      });
      this.refreshing = refreshing;
      await refreshing;
    })();
    return this.queuedRefresh;
  }

  /** Reads the assigned streams and lets the manager act on Stop and cleared sessions. */
  async poll(): Promise<void> {
    const { client, reporter, directory, manager, log } = this.o;
    const delivered = reporter.delivered;
    const sent = ++this.pollsSent;
    try {
      const assignedStreams = await client.assignedStreams();
      // The timer's read and a refresh (a player naming an output created a moment ago) may overlap and answer
      // out of order: an older answer never replaces a newer one (it would drop that output again, and an
      // edge would stop the pull its first viewer just started).
      if (sent < this.pollApplied) return;
      // The signing material a Signed output's viewers are verified with is read before the streams apply.
      await manager.signed.load(assignedStreams);
      // (Again: a newer read may have applied while that material was read.)
      if (sent < this.pollApplied) return;
      this.pollApplied = sent;
      const changes = directory.replace(assignedStreams);
      manager.reconcile(delivered, changes);
    } catch (error) {
      log.error(`reading the assigned streams failed: ${String(error)}`);
    }
  }
}
