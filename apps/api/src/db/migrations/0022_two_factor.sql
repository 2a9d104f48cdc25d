-- Two-factor sign-in (issue 23): TOTP per RFC 6238 (docs/decisions.md, "Two-factor sign-in").

-- An account's TOTP secret, sealed with the app's secret box (bound to the account's id). A row without
-- enabled_at is an enrolment not confirmed yet. last_used_step is the newest time step a code was accepted
-- for: a code of that step or an older one is refused, so a code cannot be used twice.
create table account_two_factor (
  account_id uuid primary key references accounts (id) on delete cascade,
  secret_sealed text not null,
  created_at timestamptz not null default now(),
  enabled_at timestamptz,
  last_used_step integer
);

-- One-time recovery codes, only their SHA-256 (80 random bits each: docs/decisions.md).
create table two_factor_recovery_codes (
  account_id uuid not null references accounts (id) on delete cascade,
  code_hash text not null,
  used_at timestamptz,
  primary key (account_id, code_hash)
);

-- The password step's answer for an account with two-factor sign-in: single-use, short-lived, stored hashed.
create table two_factor_tickets (
  ticket_hash text primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  expires_at timestamptz not null
);
create index two_factor_tickets_expiry_idx on two_factor_tickets (expires_at);

-- Sign-in security settings: one row.
create table security_settings (
  id boolean primary key default true check (id),
  require_admin_two_factor boolean not null default false,
  updated_at timestamptz not null default now()
);
insert into security_settings (id) values (true);

-- The session lookup reads whether an ADMIN must enrol (settings and the account's two-factor row), so
-- their changes drop cached callers in every API process, as 0015's do: 'a:<account id>' for an account's
-- two-factor row, '*' for the settings.
create function two_factor_invalidation_notify() returns trigger language plpgsql as $$
begin
  if tg_table_name = 'account_two_factor' and tg_op <> 'TRUNCATE' then
    perform pg_notify('auth_invalidation', 'a:' || (case when tg_op = 'DELETE' then old.account_id else new.account_id end)::text);
  else
    perform pg_notify('auth_invalidation', '*');
  end if;
  return null;
end
$$;

create trigger account_two_factor_invalidate after insert or update or delete on account_two_factor
  for each row execute function two_factor_invalidation_notify();
create trigger account_two_factor_truncated after truncate on account_two_factor
  for each statement execute function two_factor_invalidation_notify();
create trigger security_settings_invalidate after insert or update or delete on security_settings
  for each statement execute function two_factor_invalidation_notify();
create trigger security_settings_truncated after truncate on security_settings
  for each statement execute function two_factor_invalidation_notify();
