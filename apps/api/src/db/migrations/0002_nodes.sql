create table nodes (
  id uuid primary key,
  name text not null,
  protocol text not null,
  hostname text not null,
  port integer not null,
  bandwidth_limit_mbps double precision not null,
  public_ipv4 text,
  private_ipv4 text,
  location_code text,
  location_description text,
  latitude double precision,
  longitude double precision,
  opened boolean not null default false,
  enabled boolean not null default false,
  -- sha256 of the node token; the token itself is shown once and never stored
  token_hash text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index nodes_token_hash_key on nodes (token_hash);

-- The latest load each node reported, and a short history for the autoscaler's windows.
create table node_load_samples (
  node_id uuid not null references nodes (id) on delete cascade,
  at timestamptz not null,
  cpu_percent double precision not null,
  bandwidth_mbps double precision not null,
  sessions integer not null,
  primary key (node_id, at)
);

-- Node reports are idempotent by their report id.
create table node_reports (
  node_id uuid not null references nodes (id) on delete cascade,
  report_id text not null,
  received_at timestamptz not null default now(),
  primary key (node_id, report_id)
);
