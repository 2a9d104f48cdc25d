-- Issue 35: the VOD of a stream's ended session, kept by the node that held its rewind window (its id is the node's).
create table vods (
  id uuid primary key,
  input_id uuid not null references inputs (id) on delete cascade,
  -- Where its segments are; a node removed takes its VODs with it (they are Evicted from then on).
  node_id uuid references nodes (id) on delete set null,
  state text not null check (state in ('Available', 'Evicted')),
  started_at timestamptz not null,
  ended_at timestamptz not null,
  duration double precision not null,
  size double precision not null,
  created_at timestamptz not null default now(),
  evicted_at timestamptz
);
create index vods_input_idx on vods (input_id, ended_at desc);
