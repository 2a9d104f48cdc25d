-- Outputs follow their nodes: an output on its stream's ingest node because placement chose that node (the
-- nearest among the edge candidates) stays there (ingest_chosen); one there for lack of an edge (none when
-- it was created, or its edge node was deleted) goes to an edge as soon as its owner may use one. Outputs of
-- a disabled, closed or silent edge are placed again by the same job.
alter table outputs add column ingest_chosen boolean not null default false;
