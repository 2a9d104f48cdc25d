-- The HLS ladder a stream's ingest node serves while it transcodes (key, BANDWIDTH, RESOLUTION, CODECS per
-- rendition, top first), as that node reports it; null without one. Edges get it with their inputs, write the
-- same master playlist and pull each variant from the ingest node on demand. Cleared when the status changes.
alter table inputs add column renditions jsonb;
