import type { QualityMetric } from '@streamcloud/contract';
import type { ColumnType } from 'kysely';

/** Migration 0037: one playback session, the rollup of its events. */
export interface ViewerSessionsTable {
  id: string;
  output_id: string;
  input_id: string;
  account_id: string;
  player: 'embed' | 'preview';
  browser: string;
  os: string;
  device: string;
  country: string;
  started_at: Date;
  last_at: Date;
  startup_ms: number | null;
  ttff_ms: number | null;
  watch_ms: ColumnType<number, number | undefined, number>;
  rebuffer_count: ColumnType<number, number | undefined, number>;
  rebuffer_ms: ColumnType<number, number | undefined, number>;
  error_count: ColumnType<number, number | undefined, number>;
  latency_sum_ms: ColumnType<number, number | undefined, number>;
  latency_samples: ColumnType<number, number | undefined, number>;
  rendition_switches: ColumnType<number, number | undefined, number>;
  rendition_height: number | null;
  rendition_bitrate: number | null;
  event_count: ColumnType<number, number | undefined, number>;
}

/** One event of a session's timeline. */
export interface ViewerEventsTable {
  session_id: string;
  at: Date;
  type: string;
  value: number | null;
  detail: string | null;
}

/** Per stream, player and minute: the additive figures. */
export interface ViewerMinutesTable {
  input_id: string;
  minute: Date;
  player: 'embed' | 'preview';
  account_id: string;
  watch_ms: number;
  rebuffer_ms: number;
  rebuffer_count: number;
  error_count: number;
  latency_sum_ms: number;
  latency_samples: number;
  event_count: number;
}

/** Migration 0040: a stream's quality rule and the state its last winning check found. */
export interface QualityRulesTable {
  input_id: string;
  enabled: boolean;
  metric: QualityMetric;
  threshold: number;
  window_minutes: number;
  revision: ColumnType<number, number | undefined, number>;
  degraded: ColumnType<boolean, boolean | undefined, boolean>;
  since: Date | null;
  checked_at: Date | null;
  last_value: number | null;
  last_viewers: ColumnType<number, number | undefined, number>;
  updated_at: Date;
}

/** Migration 0040: per account (or every account, the nil UUID) and hour, the sessions that started in it. */
export interface ViewerHoursTable {
  account_id: string;
  hour: Date;
  viewers: number;
  previews: number;
  errored: number;
  watch_ms: number;
  rebuffer_ms: number;
  rebuffer_count: number;
}

export interface ViewerHourBucketsTable {
  account_id: string;
  hour: Date;
  metric: 'startup' | 'ttff' | 'latency';
  bucket: number;
  sessions: number;
}

export interface ViewerHourGroupsTable {
  account_id: string;
  hour: Date;
  dimension: 'country' | 'browser' | 'device' | 'rendition';
  value: string;
  viewers: number;
  watch_ms: number;
  rebuffer_ms: number;
}

export interface ViewerRollupStateTable {
  id: boolean;
  rolled_from: Date;
  rolled_until: Date;
}

declare module '../../db/schema.js' {
  interface Database {
    quality_rules: QualityRulesTable;
    viewer_hours: ViewerHoursTable;
    viewer_hour_buckets: ViewerHourBucketsTable;
    viewer_hour_groups: ViewerHourGroupsTable;
    viewer_rollup_state: ViewerRollupStateTable;
    viewer_sessions: ViewerSessionsTable;
    viewer_events: ViewerEventsTable;
    viewer_minutes: ViewerMinutesTable;
  }
}
