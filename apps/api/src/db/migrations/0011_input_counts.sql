-- How many inputs each account has: the list's total (X-Total-Count) without counting the rows, which on
-- PGlite (no autovacuum, so no index-only scans) meant reading the whole table on every page. Kept by
-- statement triggers, so bulk inserts and deletes (an account's cascade too) update each count once.
create table input_counts (
  owner_id uuid primary key references accounts (id) on delete cascade,
  count bigint not null check (count >= 0)
);

insert into input_counts (owner_id, count)
  select owner_id, count(*) from inputs group by owner_id;

create function input_counts_add() returns trigger language plpgsql as $$
begin
  insert into input_counts (owner_id, count)
    select owner_id, count(*) from added group by owner_id
  on conflict (owner_id) do update set count = input_counts.count + excluded.count;
  return null;
end
$$;

create function input_counts_remove() returns trigger language plpgsql as $$
begin
  update input_counts set count = input_counts.count - removed.count
    from (select owner_id, count(*) as count from removed group by owner_id) as removed
    where input_counts.owner_id = removed.owner_id;
  return null;
end
$$;

create trigger inputs_counted_on_insert after insert on inputs
  referencing new table as added for each statement execute function input_counts_add();
create trigger inputs_counted_on_delete after delete on inputs
  referencing old table as removed for each statement execute function input_counts_remove();
