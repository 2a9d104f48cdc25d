-- Each viewer output is served by a node: null is the stream's ingest node (it follows the stream when the
-- stream moves); set, an edge node (of an Outgoing node group) that pulls the stream from the ingest node.
-- A deleted edge node hands its outputs back to the ingest node.
alter table outputs add column node_id uuid references nodes (id) on delete set null;
create index outputs_node_id on outputs (node_id) where node_id is not null;
