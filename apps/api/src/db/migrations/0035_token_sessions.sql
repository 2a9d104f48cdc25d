-- Issue 34: a session of a stream-wide playback token that caps its sessions carries a digest of what the
-- token's sessions are counted by (token_id, from the node's report), so the stream's other nodes count it too.
alter table output_sessions add column token_id text;
create index output_sessions_token on output_sessions (output_id) where token_id is not null;
