create table nodes (
  id uuid primary key,
  name text not null check (char_length(name) between 1 and 255),
  protocol text not null check (char_length(protocol) between 1 and 16),
  hostname text not null check (char_length(hostname) between 1 and 255),
  port integer not null check (port between 0 and 65535),
  bandwidth_limit_mbps double precision not null check (bandwidth_limit_mbps >= 0),
  public_ipv4 text check (char_length(public_ipv4) <= 128),
  private_ipv4 text check (char_length(private_ipv4) <= 128),
  location_code text check (char_length(location_code) <= 32),
  location_description text check (char_length(location_description) <= 128),
  latitude double precision check (latitude between -90 and 90),
  longitude double precision check (longitude between -180 and 180),
  opened boolean not null default false,
  enabled boolean not null default false,
  -- sha256 (hex) of the node token; the token itself is shown once and never stored
  token_hash text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index nodes_token_hash_key on nodes (token_hash);

-- The load each node reported: the latest is shown on the node, the last hour feeds the autoscaler.
create table node_load_samples (
  node_id uuid not null references nodes (id) on delete cascade,
  at timestamptz not null,
  cpu_percent double precision not null,
  bandwidth_mbps double precision not null,
  sessions integer not null,
  primary key (node_id, at)
);

-- Node reports are idempotent by their report id; ids are remembered for a day.
create table node_reports (
  node_id uuid not null references nodes (id) on delete cascade,
  report_id text not null,
  kind text not null,
  received_at timestamptz not null default now(),
  primary key (node_id, report_id)
);
create index node_reports_received_at on node_reports (node_id, received_at);
