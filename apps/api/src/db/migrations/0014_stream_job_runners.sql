-- Which node runs each recording and relay (set by the reports it sends, kept by name once the node is
-- deleted): a job whose node was deleted or went silent moves to Error so it can be deleted, and
-- `runner_lost_at` tells that Error from the others (the node may still come back and finish a recording).
-- (The recording's object_key, which the node reports too, came with 0013_webhooks.)
alter table recordings
  add column runner_id uuid references nodes (id) on delete set null,
  add column runner_name text,
  add column runner_lost_at timestamptz;
create index recordings_runner_idx on recordings (runner_id);

alter table relays
  add column runner_id uuid references nodes (id) on delete set null,
  add column runner_name text,
  add column runner_lost_at timestamptz;
create index relays_runner_idx on relays (runner_id);
