-- S3 destinations for recordings. A storage belongs to one account (a customer brings its own bucket).
create table storages (
  id uuid primary key,
  owner_id uuid not null references accounts (id) on delete cascade,
  name text not null,
  type text not null check (type in ('AmazonS3', 'AmazonS3Compatible')),
  access_key_id text not null,
  -- AES-256-GCM ciphertext of the secret access key ("v1:iv:tag:data", base64url parts, the storage id as
  -- additional data); the key comes from STORAGE_ENCRYPTION_KEY or a file under DATA_DIR, never the database
  secret_access_key_enc text not null,
  region_name text,
  bucket text not null,
  path text,
  endpoint text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (type = 'AmazonS3Compatible' or endpoint is null),
  check (type = 'AmazonS3' or endpoint is not null)
);
create index storages_owner_id_idx on storages (owner_id);
