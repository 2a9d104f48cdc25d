-- The audit log on screen (issue 23): where each request came from and whether it succeeded (failed
-- sign-ins are audited too), and indexes for keyset paging newest first, filtered by account, resource
-- type or action, over millions of rows.
alter table audit_log add column source_address text;
alter table audit_log add column result text not null default 'success' check (result in ('success', 'failure'));
drop index audit_log_at_idx;
create index audit_log_at_id_idx on audit_log (at, id);
create index audit_log_actor_at_id_idx on audit_log (actor_id, at, id);
create index audit_log_target_type_at_id_idx on audit_log (target_type, at, id);
create index audit_log_action_at_id_idx on audit_log (action, at, id);
