create table inputs (
  id uuid primary key,
  owner_id uuid not null references accounts (id) on delete cascade,
  caption text,
  format text not null,
  status text not null check (status in ('Pending', 'Idle', 'Ingestion', 'Error', 'Fallback')),
  access text not null check (access in ('Public', 'PrivateIngoing', 'Private')),
  access_token text,
  name text not null,
  callback_uri text,
  streamer_ip text,
  streamer_latitude double precision,
  streamer_longitude double precision,
  gslb boolean not null default false,
  parameters jsonb not null default '{}',
  node_id uuid references nodes (id) on delete set null,
  output jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index inputs_name_key on inputs (name);
-- The list's order (format, then caption or id), per owner and across owners.
create index inputs_owner_order_idx on inputs (owner_id, format, (coalesce(lower(caption), id::text)), id);
create index inputs_order_idx on inputs (format, (coalesce(lower(caption), id::text)), id);
create index inputs_node_id_idx on inputs (node_id);
create index inputs_unassigned_idx on inputs (created_at) where node_id is null;

create table input_status_messages (
  id bigint generated always as identity primary key,
  input_id uuid not null references inputs (id) on delete cascade,
  at timestamptz not null,
  level text not null check (level in ('info', 'warning', 'error')),
  text text not null
);
create index input_status_messages_input_idx on input_status_messages (input_id, id);

create table input_tracks (
  input_id uuid not null references inputs (id) on delete cascade,
  source text not null check (source in ('incoming', 'outgoing')),
  idx integer not null,
  type text not null check (type in ('Video', 'Audio')),
  codec text not null,
  width integer,
  height integer,
  bps double precision,
  channels integer,
  rate double precision,
  primary key (input_id, source, idx)
);

create table outputs (
  id uuid primary key,
  input_id uuid not null references inputs (id) on delete cascade,
  format text not null,
  name text not null,
  callback_uri text,
  viewer_ip text,
  viewer_latitude double precision,
  viewer_longitude double precision,
  access_token text,
  created_at timestamptz not null default now()
);
create unique index outputs_name_key on outputs (name);
create index outputs_input_idx on outputs (input_id, created_at, id);

create table output_sessions (
  output_id uuid not null references outputs (id) on delete cascade,
  session_id text not null,
  ip_address text,
  started_at timestamptz not null,
  bytes double precision not null default 0,
  primary key (output_id, session_id)
);

create table ingress_endpoints (
  input_id uuid primary key references inputs (id) on delete cascade,
  name text not null unique,
  created_at timestamptz not null default now()
);
