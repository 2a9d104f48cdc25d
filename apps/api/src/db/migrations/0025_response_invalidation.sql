-- Every API process keeps the answers of GET /inputs and GET /inputs/{id} in memory (db/response-cache.ts)
-- until something they are read from changes. A write to any of those tables, by any code or process
-- (a cascade from a deleted account included), notifies the channel `response_invalidation` when its
-- transaction commits; each process listens and drops what it kept. One notice per statement, and
-- PostgreSQL folds a transaction's identical notices into one.
create function response_invalidation_notify() returns trigger language plpgsql as $$
begin
  perform pg_notify('response_invalidation', '');
  return null;
end
$$;

create trigger inputs_response_invalidation after insert or update or delete or truncate on inputs
  for each statement execute function response_invalidation_notify();
create trigger input_status_messages_response_invalidation
  after insert or update or delete or truncate on input_status_messages
  for each statement execute function response_invalidation_notify();
create trigger input_counts_response_invalidation after insert or update or delete or truncate on input_counts
  for each statement execute function response_invalidation_notify();
create trigger nodes_response_invalidation after insert or update or delete or truncate on nodes
  for each statement execute function response_invalidation_notify();
create trigger node_media_ports_response_invalidation
  after insert or update or delete or truncate on node_media_ports
  for each statement execute function response_invalidation_notify();
create trigger node_groups_response_invalidation after insert or update or delete or truncate on node_groups
  for each statement execute function response_invalidation_notify();
create trigger node_group_resources_response_invalidation
  after insert or update or delete or truncate on node_group_resources
  for each statement execute function response_invalidation_notify();
