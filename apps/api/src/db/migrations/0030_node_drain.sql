-- Issue 38: an admin drains a node before maintenance. While draining_since is set, placement sends no new
-- stream or viewer output there, the node's streams that are not live and the viewer outputs it serves as an
-- edge move to other nodes, and its live pushes move once they end.
alter table nodes add column draining_since timestamptz;
