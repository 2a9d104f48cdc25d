-- Issue 36: an HLS output packages the stream as Standard (nginx-rtmp's MPEG-TS playlist) or Low (the node's
-- LL-HLS packager). Null for every other format. Existing HLS outputs stay Standard.
alter table outputs add column hls_latency text
  check (hls_latency in ('Standard', 'Low'));
update outputs set hls_latency = 'Standard' where format = 'HLS';
