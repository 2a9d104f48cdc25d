import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | undefined, never>;

export interface AccountsTable {
  id: string;
  username: string;
  email: string | null;
  role: 'ADMIN' | 'USER';
  password_hash: string;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface SessionsTable {
  id: string;
  account_id: string;
  /** Set on an impersonation session: the admin acting as account_id. */
  acting_admin_id: string | null;
  /** Set on an impersonation session: the admin's own session it was started from. */
  parent_session_id: string | null;
  /** The account's role when the token was issued; a change of role revokes the token. */
  role_at_issue: 'ADMIN' | 'USER';
  created_at: CreatedAt;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  key: string;
  at: ColumnType<Date, Date | undefined, never>;
}

export interface AuditLogTable {
  id: Generated<number>;
  at: ColumnType<Date, Date | undefined, never>;
  actor_id: string | null;
  acting_admin_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  details: ColumnType<unknown, string | null | undefined, never>;
}

export interface NodesTable {
  id: string;
  name: string;
  protocol: string;
  hostname: string;
  port: number;
  bandwidth_limit_mbps: number;
  public_ipv4: string | null;
  private_ipv4: string | null;
  location_code: string | null;
  location_description: string | null;
  latitude: number | null;
  longitude: number | null;
  opened: boolean;
  enabled: boolean;
  token_hash: string;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface NodeLoadSamplesTable {
  node_id: string;
  at: Date;
  cpu_percent: number;
  bandwidth_mbps: number;
  sessions: number;
}

export interface NodeReportsTable {
  node_id: string;
  report_id: string;
  received_at: ColumnType<Date, Date | undefined, never>;
}

export interface Database {
  accounts: AccountsTable;
  sessions: SessionsTable;
  login_failures: LoginFailuresTable;
  audit_log: AuditLogTable;
  nodes: NodesTable;
  node_load_samples: NodeLoadSamplesTable;
  node_reports: NodeReportsTable;
}
