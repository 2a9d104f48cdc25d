-- Issue 34: revoked playback token ids (`jti`) per account: every token of the account's keys carrying one is
-- refused (the token test now; the nodes once they enforce tokens).
create table playback_token_revocations (
  account_id uuid not null references accounts (id) on delete cascade,
  jti text not null,
  revoked_at timestamptz not null default now(),
  primary key (account_id, jti)
);
create index playback_token_revocations_recent on playback_token_revocations (account_id, revoked_at desc);
