-- API keys (issue 23): an account's named credentials for scripts and CI. The key itself is never stored,
-- only its SHA-256 (docs/decisions.md, "API keys"), with a short prefix to tell keys apart in lists.
create table api_keys (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  name text not null,
  scope text not null check (scope in ('read', 'write')),
  prefix text not null,
  key_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_account_idx on api_keys (account_id, created_at);

-- Last use apart from the key, so recording it (at most once a minute per key and address) neither fires the
-- invalidation below nor drops this process's cached callers.
create table api_key_uses (
  key_id uuid primary key references api_keys (id) on delete cascade,
  at timestamptz not null,
  address text
);

-- A key revoked or deleted (with its account, too) drops its cached callers in every API process:
-- 's:<key id>', as for a session, since a key's caller carries the key's id as its session id (0015's
-- function, with api_keys beside sessions).
create or replace function auth_invalidation_notify() returns trigger language plpgsql as $$
begin
  if tg_op = 'TRUNCATE' then
    perform pg_notify('auth_invalidation', '*');
  elsif tg_table_name in ('sessions', 'api_keys') then
    -- Deleting sessions or keys long expired concerns no cache: they are refused already.
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

create trigger api_keys_invalidate after update or delete on api_keys
  for each row execute function auth_invalidation_notify();
create trigger api_keys_truncated after truncate on api_keys
  for each statement execute function auth_invalidation_notify();
