-- Issue 38: a node reports its own health with its load (the free space of the folders it writes, its
-- encoders' CPU, the recordings waiting to upload, and the problems it sees); the latest sample's is the
-- node's health. Null from a node that does not report it.
alter table node_load_samples add column health jsonb;
