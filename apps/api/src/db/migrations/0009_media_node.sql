-- Media node: the ports a node's media services listen on (the node reports them at start, so several
-- nodes on one machine can use distinct ports), and when an output's viewer sessions were last cleared
-- (the node serving it disconnects those viewers when it sees the time change).
create table node_media_ports (
  node_id uuid primary key references nodes (id) on delete cascade,
  ports jsonb not null,
  updated_at timestamptz not null default now()
);
alter table outputs add column sessions_cleared_at timestamptz;
