-- Issue 34: each output has its own access policy. Public: anyone plays it; Private: its static viewer token
-- (access_token) plays it, as every output of a Private stream did; Signed: only playback tokens signed with a
-- key of its account play it (the static token is kept, so a return to Private plays it again, but refused).
alter table outputs add column access text not null default 'Public'
  check (access in ('Public', 'Private', 'Signed'));
update outputs set access = 'Private' where access_token is not null;
