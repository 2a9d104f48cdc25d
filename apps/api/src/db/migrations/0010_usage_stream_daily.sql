-- Per stream, day (UTC), node, kind and (incoming) session: usage_hourly summed per day. A usage report reads
-- the whole days of its window here and only the hours of its partial edge days from usage_hourly.
create table usage_stream_daily (
  stream_id uuid not null,
  day date not null,
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
  primary key (stream_id, day, node_id, kind, session_id)
);
create index usage_stream_daily_account_idx on usage_stream_daily (account_id, day);
create index usage_stream_daily_day_idx on usage_stream_daily (day);

-- The usage recorded so far.
insert into usage_stream_daily (stream_id, day, node_id, kind, session_id, account_id, protocol, processing,
                                started_at, ended_at, duration, upload, download)
  select stream_id, (hour at time zone 'UTC')::date, node_id, kind, session_id, min(account_id::text)::uuid,
         min(protocol), min(processing), min(started_at), max(ended_at), sum(duration), sum(upload), sum(download)
  from usage_hourly
  group by stream_id, (hour at time zone 'UTC')::date, node_id, kind, session_id;
