-- Every API process keeps the sessions it checked in memory (modules/auth/session-cache.ts). Whatever can
-- end a session or change the caller it stands for notifies the channel `auth_invalidation` when its
-- transaction commits, whichever code or process made the change: 's:<session id>' for a session revoked
-- or deleted, 'a:<account id>' for an account changed (role, name, password) or deleted, '*' when either
-- table is truncated. Each process listens and drops what it kept.
create function auth_invalidation_notify() returns trigger language plpgsql as $$
begin
  if tg_op = 'TRUNCATE' then
    perform pg_notify('auth_invalidation', '*');
  elsif tg_table_name = 'sessions' then
    -- Deleting sessions long expired (the periodic cleanup) concerns no cache: they are refused already.
    if tg_op = 'DELETE' and old.expires_at < now() then
      return null;
    end if;
    perform pg_notify('auth_invalidation', 's:' || old.id::text);
  else
    perform pg_notify('auth_invalidation', 'a:' || old.id::text);
  end if;
  return null;
end
$$;

create trigger sessions_invalidate after update or delete on sessions
  for each row execute function auth_invalidation_notify();
create trigger accounts_invalidate after update or delete on accounts
  for each row execute function auth_invalidation_notify();
create trigger sessions_truncated after truncate on sessions
  for each statement execute function auth_invalidation_notify();
create trigger accounts_truncated after truncate on accounts
  for each statement execute function auth_invalidation_notify();
