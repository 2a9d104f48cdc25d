-- Node groups, their scaling rules, their nodes (resources) and the autoscaler's event log.
--
-- A group with an owner is that customer's resource: deleting the account deletes its groups
-- (on delete cascade), like every other customer resource. A group never owns its nodes: deleting a
-- group only deletes its membership rows, the nodes stay (node_group_resources cascades from both
-- sides, nodes never cascade from a group).
create table node_groups (
  id uuid primary key,
  name text not null check (char_length(name) between 1 and 255),
  description text check (char_length(description) <= 16384),
  assignment text not null check (assignment in ('Common', 'Ingestion', 'Outgoing')),
  -- null: the streaming cloud's own group
  owner_id uuid references accounts (id) on delete cascade,
  on_resources_change_callback_uri text check (char_length(on_resources_change_callback_uri) <= 255),
  scalable boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- A USER's list (owner_id = ?) and the cascade from accounts.
create index node_groups_owner_id_idx on node_groups (owner_id);
-- The autoscaler's scan of scalable groups.
create index node_groups_scalable_idx on node_groups (id) where scalable;

create table scaling_rules (
  id uuid primary key,
  group_id uuid not null references node_groups (id) on delete cascade,
  enabled boolean not null default true,
  action_timeout integer not null default 0 check (action_timeout between 0 and 3600),
  condition_type text not null check (condition_type in ('CPUGroupAvg', 'BWGroupAvg', 'GroupFull')),
  settings_type text not null check (settings_type in ('None', 'Liner')),
  comparison text not null check (comparison in ('More', 'Less')),
  value double precision not null check (value between 0 and 100),
  duration integer not null check (duration between 0 and 300),
  action_type text not null check (action_type in ('Increase', 'Reduce')),
  provider text not null check (provider in ('AWS', 'DigitalOcean', 'Oracle')),
  provider_value text check (char_length(provider_value) <= 255),
  bandwidth_limit_mbps double precision not null default 1000 check (bandwidth_limit_mbps >= 0),
  amount integer not null default 1 check (amount between 1 and 32),
  -- when the rule last acted; it may act again action_timeout seconds later
  last_action_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- A group's rules in creation order.
create index scaling_rules_group_id_idx on scaling_rules (group_id, created_at);

create table node_group_resources (
  id uuid primary key,
  group_id uuid not null references node_groups (id) on delete cascade,
  node_id uuid not null references nodes (id) on delete cascade,
  type text not null check (type in ('Persistent', 'Allocated')),
  -- for allocated nodes: the provider backend that runs the instance, and the instance id there
  provider text,
  external_id text,
  created_at timestamptz not null default now()
);
-- One membership per node and group; also serves reads by group.
create unique index node_group_resources_group_node_key on node_group_resources (group_id, node_id);
-- The picker's "groups of this node" and the cascade from nodes.
create index node_group_resources_node_id_idx on node_group_resources (node_id);

create table scaling_events (
  id bigint generated always as identity primary key,
  group_id uuid not null references node_groups (id) on delete cascade,
  rule_id uuid references scaling_rules (id) on delete set null,
  at timestamptz not null,
  type text not null check (type in ('Decision', 'ProviderCall', 'Callback')),
  action text not null,
  provider text,
  success boolean not null,
  message text not null,
  details jsonb
);
-- The dashboard's recent events of a group.
create index scaling_events_group_at_idx on scaling_events (group_id, at desc, id desc);
-- Pruning of old events.
create index scaling_events_at_idx on scaling_events (at);
-- The cascade from scaling_rules (set null).
create index scaling_events_rule_id_idx on scaling_events (rule_id);
