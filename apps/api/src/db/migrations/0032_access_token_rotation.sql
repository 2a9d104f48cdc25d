-- Issue 34, rotation: a stream's ingest token and an output's viewer token can be replaced while the one
-- replaced is still taken for an overlap window (publishers and players move over without a gap). The
-- replaced token and the end of its window are kept beside the current one; a rotation inside a window
-- replaces it (two tokens at most are ever valid). When the token was last rotated is shown on the dashboard.
alter table inputs
  add column previous_access_token text,
  add column previous_access_token_expires_at timestamptz,
  add column access_token_rotated_at timestamptz;
alter table outputs
  add column previous_access_token text,
  add column previous_access_token_expires_at timestamptz,
  add column access_token_rotated_at timestamptz;
