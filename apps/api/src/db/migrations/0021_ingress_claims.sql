-- When a push to the GSLB name last moved the stream to a node: another node's claim within a few
-- seconds of it is a second push (the first one is on its way to going live there) and is refused.
alter table ingress_endpoints add column claimed_at timestamptz;
