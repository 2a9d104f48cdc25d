-- The overlay logo of an input's transcode configuration; the configuration itself stays in inputs.output
-- (with the overlay's offsets), so the stream's own answer stays small.
create table input_overlays (
  input_id uuid primary key references inputs (id) on delete cascade,
  content_type text not null check (content_type in ('image/png', 'image/jpeg')),
  data bytea not null,
  updated_at timestamptz not null default now()
);

create table fallbacks (
  id uuid primary key,
  input_id uuid not null references inputs (id) on delete cascade,
  type text not null check (type in ('Slate', 'Input', 'Video')),
  label text,
  state text not null default 'Pending' check (state in ('Error', 'Ingestion', 'Pending')),
  message text,
  -- [{type: DATA_URI | URL | STORAGE, data}]
  resources jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index fallbacks_input_idx on fallbacks (input_id, created_at, id);

create table snapshot_settings (
  input_id uuid not null references inputs (id) on delete cascade,
  direction text not null check (direction in ('incoming', 'outgoing')),
  format text not null check (format in ('JPEG', 'PNG')),
  quality text not null check (quality in ('Low', 'Medium', 'High')),
  interval integer not null check (interval between 1 and 30),
  updated_at timestamptz not null default now(),
  primary key (input_id, direction)
);

-- The latest image per input and direction.
create table snapshot_images (
  input_id uuid not null references inputs (id) on delete cascade,
  direction text not null check (direction in ('incoming', 'outgoing')),
  content_type text not null check (content_type in ('image/png', 'image/jpeg')),
  data bytea not null,
  taken_at timestamptz not null,
  received_at timestamptz not null,
  primary key (input_id, direction)
);
