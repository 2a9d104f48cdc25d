-- Issue 41, defect 4: an API key is bound to the role its account had when the key was made, as a session
-- is (sessions.role_at_issue): a key made by an ADMIN is refused once the account is demoted. A change of
-- role also revokes the account's keys and sessions (accounts.service.ts), so a re-promotion brings none back.
alter table api_keys add column role_at_issue text;
update api_keys set role_at_issue = accounts.role from accounts where accounts.id = api_keys.account_id;
alter table api_keys alter column role_at_issue set not null;
alter table api_keys add constraint api_keys_role_at_issue_check check (role_at_issue in ('ADMIN', 'USER'));
