-- Recordings of a stream to a storage, and relays of a stream to an external destination. Both belong to
-- their input (deleted with it) and so to the input's account.

create table recordings (
  id uuid primary key,
  input_id uuid not null references inputs (id) on delete cascade,
  -- A storage in use cannot be deleted. The check is deferred to the end of the transaction so that deleting
  -- an account (whose inputs, recordings and storages all cascade in one statement) is not refused.
  storage_id uuid not null references storages (id) deferrable initially deferred,
  -- The normalised file name template (packages/contract filename-template.ts).
  file_name text not null,
  file_format text not null check (file_format in ('MKV', 'MP4')),
  autostart boolean not null,
  callback_uri text,
  capture jsonb not null,
  state text not null check (state in ('Recording', 'Uploading', 'Completed', 'Error')),
  duration double precision not null default 0,
  length double precision not null default 0,
  uploaded double precision not null default 0,
  stop_requested_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
-- A stream's list: autostarting first, then by creation.
create index recordings_input_idx on recordings (input_id, autostart desc, created_at, id);
create index recordings_storage_idx on recordings (storage_id);
create index recordings_order_idx on recordings (autostart desc, created_at, id);

create table recording_messages (
  id bigint generated always as identity primary key,
  recording_id uuid not null references recordings (id) on delete cascade,
  at timestamptz not null,
  level text not null check (level in ('info', 'warning', 'error')),
  text text not null
);
create index recording_messages_recording_idx on recording_messages (recording_id, id);

create table relays (
  id uuid primary key,
  input_id uuid not null references inputs (id) on delete cascade,
  format text not null check (format in ('RTMP', 'CMAF', 'UDPTS')),
  autostart boolean not null,
  callback_uri text,
  capture jsonb not null,
  -- The destination without its secret: RTMP {server}, CMAF {endpoint, ...}, UDPTS {ipAddress, port}.
  output jsonb not null,
  -- RTMP stream key sealed with AES-256-GCM (lib/secret-box.ts, "relay:<id>" as additional data); null without a key.
  key_enc text,
  state text not null check (state in ('Relaying', 'Completed', 'Error')),
  uploaded double precision not null default 0,
  stop_requested_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (format = 'RTMP' or key_enc is null)
);
create index relays_input_idx on relays (input_id, autostart desc, created_at, id);

create table relay_messages (
  id bigint generated always as identity primary key,
  relay_id uuid not null references relays (id) on delete cascade,
  at timestamptz not null,
  level text not null check (level in ('info', 'warning', 'error')),
  text text not null
);
create index relay_messages_relay_idx on relay_messages (relay_id, id);
