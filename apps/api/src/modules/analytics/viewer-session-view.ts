import type { TimelineEvent, ViewerSessionSummary } from '@streamcloud/contract';
import type { ViewerEventRow, ViewerSessionRow } from './analytics.repository.js';

// A viewer session and its timeline as the sessions list and the Timeline dialog read them.

export function toSummary(row: ViewerSessionRow): ViewerSessionSummary {
  return {
    id: row.id,
    streamId: row.input_id,
    outputId: row.output_id,
    player: row.player,
    startedAt: row.started_at.toISOString(),
    lastSeenAt: row.last_at.toISOString(),
    browser: row.browser,
    os: row.os,
    device: row.device,
    country: row.country,
    startupMs: row.startup_ms,
    ttffMs: row.ttff_ms,
    watchMs: row.watch_ms,
    rebufferCount: row.rebuffer_count,
    rebufferMs: row.rebuffer_ms,
    errors: row.error_count,
    latencyMs: row.latency_samples > 0 ? row.latency_sum_ms / row.latency_samples : null,
    rendition: row.rendition_height === null ? null : `${row.rendition_height}p`,
  };
}

export const toTimelineEvent = (row: ViewerEventRow): TimelineEvent => ({
  at: row.at.toISOString(),
  type: row.type as TimelineEvent['type'],
  value: row.value,
  detail: row.detail,
});
