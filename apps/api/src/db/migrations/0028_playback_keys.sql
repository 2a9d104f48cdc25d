-- Issue 34: an account's keys for signing playback tokens. ES256 and Ed25519 keys keep only their public JWK
-- (the private key is shown once and never stored); an HS256 key keeps its secret sealed with the API's
-- secret box, bound to the key's id (lib/secret-box.ts). The key's id is the `kid` its tokens name.
create table playback_keys (
  id uuid primary key,
  account_id uuid not null references accounts (id) on delete cascade,
  name text not null,
  algorithm text not null check (algorithm in ('ES256', 'Ed25519', 'HS256')),
  public_jwk text,
  sealed_secret text,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  constraint playback_keys_material check (
    (algorithm = 'HS256' and sealed_secret is not null and public_jwk is null)
    or (algorithm <> 'HS256' and public_jwk is not null and sealed_secret is null)
  )
);
create index playback_keys_account on playback_keys (account_id, created_at desc);
