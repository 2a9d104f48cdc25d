-- An Internode stream's source: the stream its node pulls (from the node that stream is on). A deleted source
-- leaves the Internode stream without one (it shows so and never goes live again); a stream that is the
-- source of others is deleted like any other.
alter table inputs add column source_input_id uuid references inputs (id) on delete set null;
create index inputs_source_input_id on inputs (source_input_id) where source_input_id is not null;
