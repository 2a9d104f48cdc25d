-- Issue 40: a customer's labels on its streams ("studio-a", "sports"). The stream's owner is kept beside the tag
-- (a stream's owner never changes) so the streams with a tag are found by account and tag on this table alone.
create table stream_tags (
  input_id uuid not null references inputs (id) on delete cascade,
  owner_id uuid not null references accounts (id) on delete cascade,
  tag text not null check (tag ~ '^[a-z0-9-]{1,32}$'),
  created_at timestamptz not null default now(),
  -- One row per tag on a stream: of concurrent adds of the same tag, one inserts.
  primary key (input_id, tag)
);
create index stream_tags_owner_tag on stream_tags (owner_id, tag, created_at, input_id);
create index stream_tags_tag on stream_tags (tag, created_at, input_id);
