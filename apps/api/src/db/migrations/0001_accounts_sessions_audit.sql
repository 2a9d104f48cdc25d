create table accounts (
  id uuid primary key,
  username text not null,
  email text,
  role text not null check (role in ('ADMIN', 'USER')),
  password_hash text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index accounts_username_lower_key on accounts (lower(username));

create table sessions (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  acting_admin_id uuid references accounts (id) on delete cascade,
  parent_session_id uuid references sessions (id) on delete cascade,
  role_at_issue text not null check (role_at_issue in ('ADMIN', 'USER')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz
);
create index sessions_account_id_idx on sessions (account_id);
create index sessions_parent_session_id_idx on sessions (parent_session_id);

create table login_failures (
  id bigint generated always as identity primary key,
  key text not null,
  at timestamptz not null default now()
);
create index login_failures_key_at_idx on login_failures (key, at);

create table audit_log (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  actor_id uuid,
  acting_admin_id uuid,
  action text not null,
  target_type text,
  target_id text,
  details jsonb
);
create index audit_log_at_idx on audit_log (at);
