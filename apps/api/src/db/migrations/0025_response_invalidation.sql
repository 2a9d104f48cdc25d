-- Every API process keeps the answers of GET /inputs and GET /inputs/{id} in memory (db/response-cache.ts)
-- until something they are read from changes. A write to any of those tables, by any code or process
-- (a cascade from a deleted account included), notifies the channel `response_invalidation` when its
-- transaction commits; each process listens and drops what it kept. One notice per statement, and
-- PostgreSQL folds a transaction's identical notices into one.
create function response_invalidation_notify() returns trigger language plpgsql
  as $$ begin perform pg_notify('response_invalidation', ''); return null; end $$;

do $$
declare
  watched text;
begin
  foreach watched in array array[
    'inputs', 'input_status_messages', 'input_counts', 'nodes', 'node_media_ports', 'node_groups',
    'node_group_resources'
  ] loop
    execute format(
      'create trigger %I after insert or update or delete or truncate on %I
         for each statement execute function response_invalidation_notify()',
      watched || '_response_invalidation', watched);
  end loop;
end
$$;
