import type { NodeMetricName, ProcessingType } from '@streamcloud/contract';
import type { ReportBody, Reporter } from '../control-plane.js';
import type { LiveStream, TransportStats } from './types.js';
import type { Viewers } from './viewers.js';

/** A usage report as the meter makes it (the reporter gives it its id). */
export type UsageBody = Extract<ReportBody, { kind: 'usage' }>;

interface IncomingDelta {
  sessionId: string;
  startedAt: string;
  duration: number;
  upload: number;
  download: number;
}

/**
 * Traffic the node sends for a stream to somewhere other than a viewer (a relay's destination): billed
 * as the stream's outgoing usage and counted in its OutgoingBitrate, like viewers' traffic.
 */
export interface OutgoingTraffic {
  readonly streamId: string;
  /** Bytes sent to the destination and received from it so far. */
  bytesOut(): number;
  bytesIn(): number;
}

/**
 * `outgoing`: sent for the stream to a customer's destination (a relay). `internode`: between this node and
 * another of the platform's (an edge pulling the stream from its origin): billed as the spec's Internode rows,
 * counted in the node's bandwidth, never in the stream's OutgoingBitrate.
 */
export type TrafficKind = 'outgoing' | 'internode';

interface MeteredTraffic extends OutgoingTraffic {
  kind: TrafficKind;
  reported: { bytesIn: number; bytesOut: number; at: number };
  ended: boolean;
}

/**
 * Billing and metrics: every report interval, each stream's IncomingBitrate, OutgoingBitrate and
 * ConcurrentViewers, the push's packet rates and RTT where its protocol measures them, and the usage
 * deltas since the last report (each push's bytes and duration, the stream's viewer and relayed bytes);
 * also a final usage report when a push ends. Answers the node's load figures.
 */
export class UsageMeter {
  private lastTick = Date.now();
  /** Pushes that ended since the last usage report: their last bytes are still owed. */
  private ended: LiveStream[] = [];
  /** Outgoing traffic other than viewers'; an ended one leaves after its last bytes are reported. */
  private traffic = new Set<MeteredTraffic>();
  /** Each push's transport counters at the last metrics report. */
  private transportReported = new WeakMap<LiveStream, TransportStats>();

  constructor(
    private readonly reporter: Reporter,
    private readonly pushes: () => LiveStream[],
    private readonly viewers: Viewers,
  ) {}

  /** The push ended: its last usage goes out now. */
  pushEnded(stream: LiveStream): void {
    this.ended.push(stream);
    this.reportUsage();
  }

  /** Meters `traffic` from now on; answers the call that says it ended (its last bytes are reported next). */
  meter(traffic: OutgoingTraffic, kind: TrafficKind = 'outgoing'): () => void {
    const metered: MeteredTraffic = {
      kind,
      streamId: traffic.streamId,
      bytesIn: () => traffic.bytesIn(),
      bytesOut: () => traffic.bytesOut(),
      reported: { bytesIn: 0, bytesOut: 0, at: Date.now() },
      ended: false,
    };
    this.traffic.add(metered);
    return () => {
      metered.ended = true;
    };
  }

  /** Metrics and usage of the interval since the last call; answers the node's bandwidth and sessions. */
  tick(): { bandwidthMbps: number; sessions: number } {
    const now = Date.now();
    const seconds = Math.max(0.001, (now - this.lastTick) / 1000);
    this.lastTick = now;
    const metrics = new Map<string, { values: Partial<Record<NodeMetricName, number>>; sessions: number }>();
    const entry = (streamId: string) => {
      let found = metrics.get(streamId);
      if (!found) {
        found = { values: { IncomingBitrate: 0, OutgoingBitrate: 0, ConcurrentViewers: 0 }, sessions: 0 };
        metrics.set(streamId, found);
      }
      return found;
    };
    let totalBytes = 0;
    const pushes = this.pushes();
    for (const stream of pushes) {
      const m = entry(stream.assigned.id);
      const delta = stream.handle.bytesIn() - stream.reported.bytesIn;
      m.values.IncomingBitrate = Math.round((delta * 8) / seconds);
      Object.assign(m.values, this.transportMetrics(stream, now, seconds));
      m.sessions += 1;
      totalBytes += delta + stream.handle.bytesOut() - stream.reported.bytesOut;
    }
    // Previews load the node (its sessions) but are neither the stream's viewers nor its billed traffic.
    for (const viewer of this.viewers.viewers()) {
      const m = entry(viewer.streamId);
      const delta = viewer.bytesOut() - viewer.reported.bytesOut;
      m.values.OutgoingBitrate = (m.values.OutgoingBitrate ?? 0) + Math.round((delta * 8) / seconds);
      m.values.ConcurrentViewers = (m.values.ConcurrentViewers ?? 0) + 1;
      m.sessions += 1;
      totalBytes += delta;
      this.viewers.markChanged(viewer.streamId);
    }
    for (const traffic of this.traffic) {
      const delta = traffic.bytesOut() - traffic.reported.bytesOut;
      totalBytes += delta + traffic.bytesIn() - traffic.reported.bytesIn;
      if (traffic.kind === 'internode') continue;
      const m = entry(traffic.streamId);
      m.values.OutgoingBitrate = (m.values.OutgoingBitrate ?? 0) + Math.round((delta * 8) / seconds);
    }
    this.reportUsage();
    const streams = [...metrics.entries()].map(([streamId, m]) => ({
      streamId,
      sessions: m.sessions,
      values: m.values,
    }));
    for (let i = 0; i < streams.length; i += 500)
      this.reporter.send({ kind: 'metrics', streams: streams.slice(i, i + 500) });
    this.viewers.flush();
    return {
      bandwidthMbps: (totalBytes * 8) / seconds / 1e6,
      sessions: pushes.length + this.viewers.count,
    };
  }

  /**
   * The push's packet rates over the interval (packets per second) and its latest round-trip time (ms),
   * where its protocol measures them; nothing for a protocol that does not.
   */
  private transportMetrics(stream: LiveStream, at: number, interval: number): Partial<Record<NodeMetricName, number>> {
    const now = stream.handle.transport?.();
    if (!now) return {};
    const last = this.transportReported.get(stream);
    this.transportReported.set(stream, now);
    // The first sample of a push covers the time since it began, not a whole interval.
    const seconds = last ? interval : Math.max(0.001, Math.min(interval, (at - stream.startedAt.getTime()) / 1000));
    const rate = (current: number | null, previous: number | null | undefined) =>
      current === null ? undefined : Math.round((Math.max(0, current - (previous ?? 0)) / seconds) * 100) / 100;
    const values: Partial<Record<NodeMetricName, number | undefined>> = {
      IncomingPacketsSent: rate(now.packetsReceived, last?.packetsReceived),
      IncomingPacketsLost: rate(now.packetsLost, last?.packetsLost),
      IncomingPacketsRetrans: rate(now.packetsRetransmitted, last?.packetsRetransmitted),
      IncomingPacketsDropped: rate(now.packetsDropped, last?.packetsDropped),
      IncomingRTT: now.rttMs === null ? undefined : Math.round(now.rttMs * 100) / 100,
    };
    return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
  }

  /** Usage deltas since the last report: each push's bytes and duration, each stream's viewer bytes. */
  reportUsage(): void {
    for (const usage of this.usageSinceReport(true)) this.reporter.send(usage);
  }

  /**
   * What `reportUsage()` would send now, without sending it or moving the baselines: the usage counted
   * but not reported yet, which the usage journal keeps each second so a crash does not lose it.
   */
  pendingUsage(): UsageBody[] {
    return this.usageSinceReport(false);
  }

  /** The usage reports of the interval since the last report; `cut` makes now the start of the next. */
  private usageSinceReport(cut: boolean): UsageBody[] {
    const now = Date.now();
    const byStream = new Map<
      string,
      {
        processing?: ProcessingType;
        incoming: IncomingDelta[];
        out: { upload: number; download: number; duration: number };
        internode: { upload: number; download: number; duration: number };
      }
    >();
    const entry = (streamId: string) => {
      let found = byStream.get(streamId);
      if (!found) {
        found = {
          incoming: [],
          out: { upload: 0, download: 0, duration: 0 },
          internode: { upload: 0, download: 0, duration: 0 },
        };
        byStream.set(streamId, found);
      }
      return found;
    };
    for (const stream of [...this.pushes(), ...this.ended]) {
      // An Internode stream's content is its node's pull of the source: metered as internode, not ingest.
      if (stream.protocol === 'Internode') continue;
      const bytesIn = stream.handle.bytesIn();
      const bytesOut = stream.handle.bytesOut();
      const upload = bytesIn - stream.reported.bytesIn;
      const download = bytesOut - stream.reported.bytesOut;
      const duration = Math.max(0, (now - stream.reported.at) / 1000);
      if (upload === 0 && download === 0 && duration < 0.5) continue;
      const usage = entry(stream.assigned.id);
      // Processing is Transcode for an interval in which a ladder ran, else Passthrough.
      usage.processing =
        usage.processing === 'Transcode' || stream.transcoding || stream.transcodedSinceReport
          ? 'Transcode'
          : 'Passthrough';
      if (cut) {
        stream.reported = { bytesIn, bytesOut, at: now };
        stream.transcodedSinceReport = stream.transcoding;
      }
      usage.incoming.push({
        sessionId: stream.id,
        startedAt: stream.startedAt.toISOString(),
        duration,
        upload,
        download,
      });
    }
    if (cut) this.ended = [];
    // Viewers' and relays' traffic: what the node sent them is the stream's outgoing download; an edge pull's
    // is internode (upload on the edge, download on the origin).
    const ended = cut ? this.viewers.takeEnded() : this.viewers.endedSinceReport();
    for (const sender of [...this.viewers.viewers(), ...ended, ...this.traffic]) {
      const bytesIn = sender.bytesIn();
      const bytesOut = sender.bytesOut();
      const upload = bytesIn - sender.reported.bytesIn;
      const download = bytesOut - sender.reported.bytesOut;
      const duration = Math.max(0, (now - sender.reported.at) / 1000);
      if (cut) sender.reported = { bytesIn, bytesOut, at: now };
      if (upload === 0 && download === 0) continue;
      const usage = entry(sender.streamId);
      const out = 'kind' in sender && sender.kind === 'internode' ? usage.internode : usage.out;
      out.upload += upload;
      out.download += download;
      out.duration = Math.max(out.duration, duration);
    }
    if (cut) for (const traffic of this.traffic) if (traffic.ended) this.traffic.delete(traffic);
    // Measured now: a report resent after a restart is still billed to the hour it was counted in.
    const at = new Date(now).toISOString();
    return [...byStream].map(([streamId, usage]) => ({
      kind: 'usage',
      at,
      streamId,
      ...(usage.processing ? { processing: usage.processing } : {}),
      ...(usage.incoming.length > 0 ? { incoming: usage.incoming } : {}),
      ...(usage.internode.upload + usage.internode.download > 0 ? { internode: usage.internode } : {}),
      ...(usage.out.upload + usage.out.download > 0 ? { outgoing: usage.out } : {}),
    }));
  }
}
