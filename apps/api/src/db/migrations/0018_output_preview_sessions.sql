-- The console's preview player plays an output with a preview credential: the node reports those sessions
-- as a count apart from the viewer sessions (output_sessions), so they are neither viewers nor billed.
alter table outputs add column preview_sessions integer not null default 0;
