-- Addresses an account signed in from recently: the per-username failure limit does not lock the owner out
-- from one of them (failures from there are limited per username and address instead).
create table login_trusted_addresses (
  account_id uuid not null references accounts (id) on delete cascade,
  address text not null,
  last_success_at timestamptz not null,
  primary key (account_id, address)
);
