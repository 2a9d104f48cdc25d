-- Issue 35: an HLS output's live rewind window in minutes (0: off); the node keeps that much on its disk.
alter table outputs add column dvr_window_minutes integer not null default 0
  check (dvr_window_minutes between 0 and 240);
