-- The list's order indexes carry every column of a list row, so a page (a deep one too: offset 10,000
-- reads 10,200 entries) is an index-only scan instead of as many visits of the table's pages.
drop index inputs_owner_order_idx;
drop index inputs_order_idx;
create index inputs_owner_order_idx on inputs (owner_id, format, (coalesce(lower(caption), id::text)), id)
  include (caption, status, access, name, node_id, created_at);
create index inputs_order_idx on inputs (format, (coalesce(lower(caption), id::text)), id)
  include (owner_id, caption, status, access, name, node_id, created_at);
