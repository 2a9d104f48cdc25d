-- Issue 37: what viewers' players report of their playback (the viewer beacon). No foreign keys, as the usage
-- tables: a beacon about a stream deleted meanwhile is still stored (never a failed insert), and the rows go
-- with the retention job (VIEWER_ANALYTICS_RETENTION_DAYS), not with the stream.

-- One row per playback session: the rollup of its events, kept current on write. The analytics' percentiles,
-- viewers, error rate and breakdowns read it (one row per viewer rather than per event).
create table viewer_sessions (
  id uuid primary key,
  output_id uuid not null,
  input_id uuid not null,
  account_id uuid not null,
  player text not null check (player in ('embed', 'preview')),
  browser text not null,
  os text not null,
  device text not null,
  country text not null,
  started_at timestamptz not null,
  last_at timestamptz not null,
  startup_ms double precision,
  ttff_ms double precision,
  watch_ms double precision not null default 0,
  rebuffer_count integer not null default 0,
  rebuffer_ms double precision not null default 0,
  error_count integer not null default 0,
  latency_sum_ms double precision not null default 0,
  latency_samples integer not null default 0,
  rendition_switches integer not null default 0,
  rendition_height integer,
  rendition_bitrate double precision,
  event_count integer not null default 0
);
-- A window's sessions of one stream or account: those seen since its start (last_at), then started before its end.
create index viewer_sessions_stream on viewer_sessions (input_id, last_at);
create index viewer_sessions_account on viewer_sessions (account_id, last_at);
create index viewer_sessions_last on viewer_sessions (last_at);

-- Every event as sent (a session's timeline), kept for the retention period.
create table viewer_events (
  session_id uuid not null,
  at timestamptz not null,
  type text not null,
  value double precision,
  detail text
);
create index viewer_events_session on viewer_events (session_id, at);
create index viewer_events_at on viewer_events (at);

-- Per stream, player and minute: the additive figures (watch and stalled time, stalls, errors, latency), kept
-- current on write; a window's totals and the Prometheus series add these up.
create table viewer_minutes (
  input_id uuid not null,
  minute timestamptz not null,
  player text not null,
  account_id uuid not null,
  watch_ms double precision not null default 0,
  rebuffer_ms double precision not null default 0,
  rebuffer_count integer not null default 0,
  error_count integer not null default 0,
  latency_sum_ms double precision not null default 0,
  latency_samples integer not null default 0,
  event_count integer not null default 0,
  primary key (input_id, minute, player)
);
create index viewer_minutes_account on viewer_minutes (account_id, minute);
create index viewer_minutes_minute on viewer_minutes (minute);
