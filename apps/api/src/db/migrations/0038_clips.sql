-- Issue 35: clips cut from a stream's rewind window or a recording, into a storage (no re-encoding).
create table clips (
  id uuid primary key,
  input_id uuid not null references inputs (id) on delete cascade,
  -- A recording clip's source; the clip (and its file) stay when the recording goes.
  recording_id uuid references recordings (id) on delete set null,
  -- The clip's file is out of reach once its storage goes; the row stays to say so.
  storage_id uuid references storages (id) on delete set null,
  -- The node that cuts it (the one holding the stream's rewind window when it was asked for).
  node_id uuid,
  caption text not null,
  -- A recording clip's source object (the recording's, when the clip was asked for) and its storage.
  source_object_key text,
  source_storage_id uuid references storages (id) on delete set null,
  -- Stream clips: program date-times; recording clips: seconds from the recording's start.
  from_at timestamptz,
  to_at timestamptz,
  from_seconds double precision,
  to_seconds double precision,
  state text not null check (state in ('Pending', 'Processing', 'Ready', 'Error')),
  message text,
  duration double precision,
  size double precision,
  object_key text,
  callback_uri text,
  created_at timestamptz not null default now(),
  finished_at timestamptz,
  check ((from_at is not null and to_at is not null) or (from_seconds is not null and to_seconds is not null))
);
create index clips_input_idx on clips (input_id, created_at desc);
create index clips_waiting_idx on clips (node_id) where state in ('Pending', 'Processing');
