-- Webhooks (modules/webhooks): the outbox of deliveries, the signing secrets, and what stream events need.

-- One signing secret per account, and one for the platform's own node groups (scope 'platform').
-- Secrets are sealed (lib/secret-box.ts, bound to the scope); the one replaced by a rotation signs
-- alongside the new one until previous_expires_at.
create table webhook_secrets (
  scope text primary key,
  account_id uuid references accounts (id) on delete cascade,
  secret text not null,
  previous_secret text,
  previous_expires_at timestamptz,
  created_at timestamptz not null,
  check (scope = coalesce(account_id::text, 'platform')),
  check ((previous_secret is null) = (previous_expires_at is null))
);

-- The outbox: one row per event and callback URL, written in the transaction of the change that causes
-- the event, then sent by a dispatcher. It is also the delivery log. Rows outlive their resource (a
-- deleted stream's stream.deleted) but not their account.
create table webhook_deliveries (
  id uuid primary key,
  -- the order of emission (oldest first when several are due)
  seq bigint generated always as identity,
  account_id uuid references accounts (id) on delete cascade,
  type text not null,
  resource_type text not null,
  -- null only for the platform's test events
  resource_id uuid,
  stream_id uuid,
  url text not null,
  -- the exact body sent: signatures cover these bytes
  payload text not null,
  occurred_at timestamptz not null,
  status text not null check (status in ('Pending', 'Delivered', 'Failed')),
  attempts integer not null default 0,
  -- the step of the retry schedule the next failure takes (Redeliver starts over)
  retry_step integer not null default 0,
  -- while Pending: when the next attempt is due; while an attempt is in flight, when its lease ends
  next_attempt_at timestamptz,
  -- the dispatcher whose attempt is in flight (its lease is next_attempt_at)
  claimed_by text,
  last_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  delivered_at timestamptz,
  check ((status = 'Pending') = (next_attempt_at is not null))
);
-- The dispatcher's scan of due deliveries.
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at, seq) where status = 'Pending';
-- The logs: per account, per stream, per resource, newest first; and the retention's scan.
create index webhook_deliveries_account_idx on webhook_deliveries (account_id, seq desc);
create index webhook_deliveries_stream_idx on webhook_deliveries (stream_id, seq desc) where stream_id is not null;
create index webhook_deliveries_resource_idx on webhook_deliveries (resource_id, seq desc);
create index webhook_deliveries_occurred_idx on webhook_deliveries (occurred_at);

-- Every API server's dispatcher listens on this channel; a NOTIFY is delivered only when the transaction
-- that wrote the deliveries commits, so a rolled-back change wakes nobody.
create function webhook_deliveries_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('webhook_deliveries', '');
  return null;
end
$$;
create trigger webhook_deliveries_notify_on_insert after insert on webhook_deliveries
  for each statement execute function webhook_deliveries_notify();

-- The push a stream's stream.ingestion announced, for its stream.idle (only streams with a callback).
create table webhook_stream_pushes (
  input_id uuid primary key references inputs (id) on delete cascade,
  protocol text not null,
  address text,
  started_at timestamptz not null
);

-- The key of a recording's uploaded file, as the node reports it (recording.completed carries it).
alter table recordings add column object_key text check (char_length(object_key) <= 1024);
