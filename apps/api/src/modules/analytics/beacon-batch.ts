import type { BeaconBatch, BeaconEvent } from '@streamcloud/contract';
import type { ViewerEventRow, ViewerMinuteDelta } from './analytics.repository.js';

// What one beacon batch writes, worked out before the one statement that writes it (AnalyticsService.ingest):
// its session's sums, its events' rows and its minutes' additive figures. Pure: no clock, no database.

const MINUTE_MS = 60_000;

/** A batch's figures as its session adds them up. */
export function summarize(events: BeaconEvent[]) {
  const summary = {
    startup_ms: null as number | null,
    ttff_ms: null as number | null,
    watch_ms: 0,
    rebuffer_count: 0,
    rebuffer_ms: 0,
    error_count: 0,
    latency_sum_ms: 0,
    latency_samples: 0,
    rendition_switches: 0,
    rendition_height: null as number | null,
    rendition_bitrate: null as number | null,
    event_count: events.length,
  };
  let renditionAt = -1;
  for (const event of events) {
    switch (event.type) {
      case 'startup':
        summary.startup_ms ??= event.startupMs;
        summary.ttff_ms ??= event.ttffMs;
        break;
      case 'watch':
        summary.watch_ms += event.watchedMs;
        break;
      case 'rebuffer':
        summary.rebuffer_count += 1;
        summary.rebuffer_ms += event.durationMs;
        break;
      case 'error':
        summary.error_count += 1;
        break;
      case 'latency':
        summary.latency_sum_ms += event.latencyMs;
        summary.latency_samples += 1;
        break;
      case 'rendition':
        summary.rendition_switches += 1;
        // The latest rendition of the batch is the one now played.
        if (event.at >= renditionAt) {
          renditionAt = event.at;
          summary.rendition_height = event.height;
          summary.rendition_bitrate = event.bitrate;
        }
        break;
    }
  }
  return summary;
}

/** The batch's additive figures per minute of the server's clock, for the stream's minute rollup. */
export function minuteDeltas(
  batch: BeaconBatch,
  timeOf: (at: number) => Date,
  owner: { streamId: string; accountId: string },
): ViewerMinuteDelta[] {
  const byMinute = new Map<number, ViewerMinuteDelta>();
  for (const event of batch.events) {
    const minute = Math.floor(timeOf(event.at).getTime() / MINUTE_MS) * MINUTE_MS;
    let row = byMinute.get(minute);
    if (!row) {
      row = {
        input_id: owner.streamId,
        minute: new Date(minute),
        player: batch.player,
        account_id: owner.accountId,
        watch_ms: 0,
        rebuffer_ms: 0,
        rebuffer_count: 0,
        error_count: 0,
        latency_sum_ms: 0,
        latency_samples: 0,
        event_count: 0,
      };
      byMinute.set(minute, row);
    }
    row.event_count += 1;
    if (event.type === 'watch') row.watch_ms += event.watchedMs;
    if (event.type === 'rebuffer') {
      row.rebuffer_ms += event.durationMs;
      row.rebuffer_count += 1;
    }
    if (event.type === 'error') row.error_count += 1;
    if (event.type === 'latency') {
      row.latency_sum_ms += event.latencyMs;
      row.latency_samples += 1;
    }
  }
  return [...byMinute.values()];
}

/** One event as the session's timeline keeps it. */
export function toEventRow(sessionId: string, at: Date, event: BeaconEvent): ViewerEventRow {
  const row = (value: number | null, detail: string | null): ViewerEventRow => ({
    session_id: sessionId,
    at,
    type: event.type,
    value,
    detail,
  });
  switch (event.type) {
    case 'startup':
      return row(event.ttffMs, `startup ${event.startupMs} ms`);
    case 'rebuffer':
      return row(event.durationMs, null);
    case 'latency':
      return row(event.latencyMs, null);
    case 'error':
      return row(null, event.message ? `${event.kind}: ${event.message}` : event.kind);
    case 'rendition':
      return row(event.bitrate, `${event.width}x${event.height}`);
    case 'watch':
      return row(event.watchedMs, null);
  }
}
