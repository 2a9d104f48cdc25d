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
