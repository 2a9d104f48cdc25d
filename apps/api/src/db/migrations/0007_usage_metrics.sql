-- Usage (billing) and metrics reported by nodes.
-- Billing data must outlive the stream and the account it belongs to: no table here references inputs,
-- accounts or nodes, and every row carries the account, stream, protocol and processing it had when it
-- was written.

-- Who each stream was when it first reported (and its caption when it last reported).
create table usage_streams (
  stream_id uuid primary key,
  account_id uuid not null,
  protocol text not null,
  processing text not null check (processing in ('Transcode', 'Passthrough')),
  name text not null,
  caption text,
  first_seen_at timestamptz not null default now()
);
create index usage_streams_account_idx on usage_streams (account_id);

-- The name each node had when it last reported usage.
create table usage_nodes (
  node_id uuid primary key,
  name text not null
);

-- Raw usage deltas as nodes sent them: the audit trail of every bill. Never expires; the API reads the rollups.
create table usage_records (
  id bigint generated always as identity primary key,
  received_at timestamptz not null,
  at timestamptz not null,
  node_id uuid not null,
  stream_id uuid not null,
  account_id uuid not null,
  protocol text not null,
  processing text not null,
  kind text not null check (kind in ('incoming', 'internode', 'outgoing')),
  session_id text,
  started_at timestamptz,
  duration double precision not null,
  upload double precision not null,
  download double precision not null
);

-- Per stream, hour, node, kind and (incoming) session: what the statistics calls add up.
create table usage_hourly (
  stream_id uuid not null,
  hour timestamptz not null,
  node_id uuid not null,
  kind text not null check (kind in ('incoming', 'internode', 'outgoing')),
  -- the incoming session; '' for internode and outgoing traffic
  session_id text not null,
  account_id uuid not null,
  protocol text not null,
  processing text not null,
  started_at timestamptz,
  -- the time of the latest delta (when the node measured it)
  ended_at timestamptz not null,
  duration double precision not null,
  upload double precision not null,
  download double precision not null,
  primary key (stream_id, hour, node_id, kind, session_id)
);
create index usage_hourly_account_idx on usage_hourly (account_id, hour);
create index usage_hourly_hour_idx on usage_hourly (hour);

-- Per account, day, kind, protocol and processing: the account totals (the /metrics usage counters).
create table usage_daily (
  account_id uuid not null,
  day date not null,
  kind text not null,
  protocol text not null,
  processing text not null,
  duration double precision not null,
  upload double precision not null,
  download double precision not null,
  primary key (account_id, day, kind, protocol, processing)
);

-- Raw metric samples; they expire after METRICS_RETENTION_DAYS.
create table metric_samples (
  at timestamptz not null,
  stream_id uuid not null,
  node_id uuid not null,
  name text not null,
  location text not null,
  value double precision not null,
  account_id uuid not null,
  protocol text not null,
  processing text not null
);
create index metric_samples_stream_idx on metric_samples (stream_id, name, at);
create index metric_samples_at_idx on metric_samples (at);

-- Per series (stream, node, location, name) and minute / hour: sum, count and max of the samples.
create table metric_minutes (
  stream_id uuid not null,
  name text not null,
  minute timestamptz not null,
  node_id uuid not null,
  location text not null,
  account_id uuid not null,
  protocol text not null,
  processing text not null,
  sum double precision not null,
  count integer not null,
  max double precision not null,
  primary key (stream_id, name, minute, node_id, location)
);
create index metric_minutes_minute_idx on metric_minutes (minute);

create table metric_hours (
  stream_id uuid not null,
  name text not null,
  hour timestamptz not null,
  node_id uuid not null,
  location text not null,
  account_id uuid not null,
  protocol text not null,
  processing text not null,
  sum double precision not null,
  count integer not null,
  max double precision not null,
  primary key (stream_id, name, hour, node_id, location)
);

-- Per account (the all-zero uuid: every account), name, protocol, processing and minute / hour: the sum over
-- the account's series of each series' average in that minute / hour. Only the additive metrics.
create table metric_account_minutes (
  account_id uuid not null,
  name text not null,
  minute timestamptz not null,
  protocol text not null,
  processing text not null,
  value double precision not null,
  primary key (account_id, name, minute, protocol, processing)
);
create index metric_account_minutes_minute_idx on metric_account_minutes (minute);

create table metric_account_hours (
  account_id uuid not null,
  name text not null,
  hour timestamptz not null,
  protocol text not null,
  processing text not null,
  value double precision not null,
  primary key (account_id, name, hour, protocol, processing)
);
