-- Issue 37: a stream's quality rule (quality.degraded / quality.recovered through its callbackUri) and where it
-- stands. One row per stream that has set one; the rule goes with its stream. `degraded` is the state the last
-- winning check found: a check changes it only from the state and revision it read (compare and set), so
-- several API processes, a restart or an edit of the rule in between never send an event twice or lose one.
create table quality_rules (
  input_id uuid primary key references inputs (id) on delete cascade,
  enabled boolean not null,
  metric text not null check (metric in ('rebufferPercent', 'errorPercent', 'ttffP95Ms', 'startupP95Ms', 'latencyP95Ms')),
  threshold double precision not null check (threshold >= 0),
  window_minutes integer not null check (window_minutes between 1 and 60),
  -- Each save adds one: a check of the rule as it was before cannot change the state of the rule as it is.
  revision integer not null default 1,
  degraded boolean not null default false,
  -- The check that found the rule starting, or ceasing, to hold.
  since timestamptz,
  -- The last check: when, the metric's value (null: no samples) and the window's viewer sessions.
  checked_at timestamptz,
  last_value double precision,
  last_viewers integer not null default 0,
  updated_at timestamptz not null
);
-- The periodic check's work: the rules that are on, or still Degraded (turned off since), least recently checked first.
create index quality_rules_due on quality_rules (checked_at nulls first) where enabled or degraded;

-- Issue 37, account-wide analytics: hourly rollups of the viewer sessions that started in each hour, per account
-- and for every account together (account_id = the nil UUID), written by the analytics' periodic job once an hour
-- can no longer change (its sessions' beacons all came: VIEWER_ROLLUP_FINAL_MS after its end). An account's or
-- every account's window reads them for its whole rolled hours and the sessions and minutes themselves for the
-- rest, instead of every session of the window.
create table viewer_hours (
  account_id uuid not null,
  hour timestamptz not null,
  viewers integer not null,
  previews integer not null,
  errored integer not null,
  -- The viewers' minutes of the hour (minute in [hour, hour + 1 h)).
  watch_ms double precision not null,
  rebuffer_ms double precision not null,
  rebuffer_count bigint not null,
  primary key (account_id, hour)
);
create index viewer_hours_hour on viewer_hours (hour);

-- Per hour, the viewers' per-session startup, time to first frame and average latency as counts of fixed
-- logarithmic buckets (10 % wide): percentiles of any run of hours are read from their summed counts.
create table viewer_hour_buckets (
  account_id uuid not null,
  hour timestamptz not null,
  metric text not null check (metric in ('startup', 'ttff', 'latency')),
  bucket integer not null,
  sessions integer not null,
  primary key (account_id, hour, metric, bucket)
);
create index viewer_hour_buckets_hour on viewer_hour_buckets (hour);

-- Per hour, the breakdowns: viewers, played and stalled time per country, browser, device and rendition.
create table viewer_hour_groups (
  account_id uuid not null,
  hour timestamptz not null,
  dimension text not null,
  value text not null,
  viewers integer not null,
  watch_ms double precision not null,
  rebuffer_ms double precision not null,
  primary key (account_id, hour, dimension, value)
);
create index viewer_hour_groups_hour on viewer_hour_groups (hour);

-- Which hours are rolled up (one row): every hour from `rolled_from` to before `rolled_until` has its rollups. The
-- first run starts at the earliest session kept, or at the first hour no new session can start in, if earlier.
create table viewer_rollup_state (
  id boolean primary key default true check (id),
  rolled_from timestamptz not null,
  rolled_until timestamptz not null
);
