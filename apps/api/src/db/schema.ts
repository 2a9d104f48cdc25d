import type { NodeHealth } from '@streamcloud/contract';
import type { ColumnType, Generated } from 'kysely';

export type CreatedAt = ColumnType<Date, Date | undefined, never>;

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

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  scope: 'read' | 'write';
  /** The key's first characters, shown in lists to tell keys apart. */
  prefix: string;
  /** SHA-256 of the whole key, base64url. */
  key_hash: string;
  /** The account's role when the key was made; the key is refused under any other (migration 0027). */
  role_at_issue: 'ADMIN' | 'USER';
  created_at: CreatedAt;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export interface ApiKeyUsesTable {
  key_id: string;
  at: Date;
  address: string | null;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  key: string;
  at: ColumnType<Date, Date | undefined, never>;
}

export interface LoginTrustedAddressesTable {
  account_id: string;
  address: string;
  last_success_at: Date;
}

export interface AccountTwoFactorTable {
  account_id: string;
  secret_sealed: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  enabled_at: Date | null;
  last_used_step: number | null;
}

export interface TwoFactorRecoveryCodesTable {
  account_id: string;
  code_hash: string;
  used_at: Date | null;
}

export interface TwoFactorTicketsTable {
  ticket_hash: string;
  account_id: string;
  expires_at: Date;
}

export interface SecuritySettingsTable {
  id: ColumnType<boolean, boolean | undefined, never>;
  require_admin_two_factor: boolean;
  updated_at: ColumnType<Date, Date | undefined, Date>;
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
  source_address: string | null;
  result: ColumnType<'success' | 'failure', 'success' | 'failure' | undefined, never>;
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
  /** Since when an admin drains it (0030): nothing new is placed there and what is not live moves away. */
  draining_since: Date | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** The ports a node's media services listen on, as the node reported them (no row: the defaults). */
export interface NodeMediaPortsTable {
  node_id: string;
  ports: ColumnType<{ rtmp: number; srt: number; rtsp: number }, string, string>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface NodeLoadSamplesTable {
  node_id: string;
  at: Date;
  cpu_percent: number;
  bandwidth_mbps: number;
  sessions: number;
  /** The node's health (`NodeHealth`), JSON; null from a node that does not report it. */
  health: ColumnType<NodeHealth | null, string | null, string | null>;
}

export interface NodeReportsTable {
  node_id: string;
  report_id: string;
  kind: string;
  received_at: ColumnType<Date, Date | undefined, never>;
}

export interface NodeGroupsTable {
  id: string;
  name: string;
  description: string | null;
  assignment: 'Common' | 'Ingestion' | 'Outgoing';
  owner_id: string | null;
  on_resources_change_callback_uri: string | null;
  scalable: ColumnType<boolean, boolean | undefined, boolean>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface ScalingRulesTable {
  id: string;
  group_id: string;
  enabled: boolean;
  action_timeout: number;
  condition_type: 'CPUGroupAvg' | 'BWGroupAvg' | 'GroupFull';
  settings_type: 'None' | 'Liner';
  comparison: 'More' | 'Less';
  value: number;
  duration: number;
  action_type: 'Increase' | 'Reduce';
  provider: 'AWS' | 'DigitalOcean' | 'Oracle';
  provider_value: string | null;
  bandwidth_limit_mbps: number;
  amount: number;
  last_action_at: Date | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface NodeGroupResourcesTable {
  id: string;
  group_id: string;
  node_id: string;
  type: 'Persistent' | 'Allocated';
  provider: string | null;
  external_id: string | null;
  created_at: CreatedAt;
}

export interface ScalingEventsTable {
  id: Generated<number>;
  group_id: string;
  rule_id: string | null;
  at: Date;
  type: 'Decision' | 'ProviderCall' | 'Callback';
  action: string;
  provider: string | null;
  success: boolean;
  message: string;
  details: ColumnType<unknown, string | null | undefined, never>;
}

export interface StoragesTable {
  id: string;
  owner_id: string;
  name: string;
  type: 'AmazonS3' | 'AmazonS3Compatible';
  access_key_id: string;
  /** AES-256-GCM ciphertext of the secret access key (lib/secret-box.ts); never the secret itself. */
  secret_access_key_enc: string;
  region_name: string | null;
  bucket: string;
  path: string | null;
  endpoint: string | null;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

// Usage and metrics (0007): no foreign keys, so billing data outlives streams, accounts and nodes.
export interface UsageStreamsTable {
  stream_id: string;
  account_id: string;
  protocol: string;
  processing: 'Transcode' | 'Passthrough';
  name: string;
  caption: string | null;
  first_seen_at: ColumnType<Date, Date | undefined, never>;
}

export interface UsageNodesTable {
  node_id: string;
  name: string;
}

export interface UsageRecordsTable {
  id: Generated<number>;
  received_at: Date;
  at: Date;
  node_id: string;
  stream_id: string;
  account_id: string;
  protocol: string;
  processing: string;
  kind: 'incoming' | 'internode' | 'outgoing';
  session_id: string | null;
  started_at: Date | null;
  duration: number;
  upload: number;
  download: number;
}

/** The columns of the per-session usage rollups, besides their period. */
interface UsageSessionRollup {
  stream_id: string;
  node_id: string;
  kind: 'incoming' | 'internode' | 'outgoing';
  session_id: string;
  account_id: string;
  protocol: string;
  processing: string;
  started_at: Date | null;
  ended_at: Date;
  duration: number;
  upload: number;
  download: number;
}

export interface UsageHourlyTable extends UsageSessionRollup {
  hour: Date;
}

/** usage_hourly summed per UTC day: the whole days of a report's window. */
export interface UsageStreamDailyTable extends UsageSessionRollup {
  day: ColumnType<Date, string, string>;
}

export interface UsageDailyTable {
  account_id: string;
  day: ColumnType<Date, string, string>;
  kind: string;
  protocol: string;
  processing: string;
  duration: number;
  upload: number;
  download: number;
}

export interface MetricSamplesTable {
  at: Date;
  stream_id: string;
  node_id: string;
  name: string;
  location: string;
  value: number;
  account_id: string;
  protocol: string;
  processing: string;
}

export interface MetricRollupTable {
  stream_id: string;
  name: string;
  node_id: string;
  location: string;
  account_id: string;
  protocol: string;
  processing: string;
  sum: number;
  count: number;
  max: number;
}

export interface MetricAccountRollupTable {
  account_id: string;
  name: string;
  protocol: string;
  processing: string;
  value: number;
}

export interface InputOverlaysTable {
  input_id: string;
  content_type: 'image/png' | 'image/jpeg';
  data: Uint8Array;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface FallbacksTable {
  id: string;
  input_id: string;
  type: 'Slate' | 'Input' | 'Video';
  label: string | null;
  state: ColumnType<'Error' | 'Ingestion' | 'Pending', 'Error' | 'Ingestion' | 'Pending' | undefined>;
  message: string | null;
  resources: ColumnType<Array<{ type: 'DATA_URI' | 'URL' | 'STORAGE'; data: string }>, string, string>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface SnapshotSettingsTable {
  input_id: string;
  direction: 'incoming' | 'outgoing';
  format: 'JPEG' | 'PNG';
  quality: 'Low' | 'Medium' | 'High';
  interval: number;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface SnapshotImagesTable {
  input_id: string;
  direction: 'incoming' | 'outgoing';
  content_type: 'image/png' | 'image/jpeg';
  data: Uint8Array;
  taken_at: Date;
  received_at: Date;
}

/** The columns recordings and relays share: jobs the node serving a stream runs on it. */
interface StreamJobsTable {
  id: string;
  input_id: string;
  autostart: boolean;
  callback_uri: string | null;
  capture: ColumnType<import('@streamcloud/contract').Capture, string, string>;
  uploaded: ColumnType<number, number | undefined, number>;
  stop_requested_at: Date | null;
  /** The node that runs it (its reports say so); null once that node is deleted, or before any report. */
  runner_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** That node's name, kept after it is deleted. */
  runner_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** When it moved to Error because its node was deleted or went silent (null otherwise). */
  runner_lost_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface RecordingsTable extends StreamJobsTable {
  storage_id: string;
  file_name: string;
  file_format: 'MKV' | 'MP4';
  state: 'Recording' | 'Uploading' | 'Completed' | 'Error';
  duration: ColumnType<number, number | undefined, number>;
  length: ColumnType<number, number | undefined, number>;
  /** The uploaded file's key in the bucket (the current run's), once the node told it. */
  object_key: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface RelaysTable extends StreamJobsTable {
  format: 'RTMP' | 'CMAF' | 'UDPTS';
  /** The destination without the RTMP key. */
  output: ColumnType<Record<string, unknown>, string, string>;
  /** The sealed RTMP stream key (lib/secret-box.ts), null without one. */
  key_enc: string | null;
  state: 'Relaying' | 'Completed' | 'Error';
}

/** Status messages of recordings and relays (the latest few are kept). */
export interface OwnedMessagesTable {
  id: Generated<number>;
  at: Date;
  level: 'info' | 'warning' | 'error';
  text: string;
}

export interface WebhookSecretsTable {
  /** The account's id, or 'platform' for the platform's own node groups. */
  scope: string;
  account_id: string | null;
  /** Sealed (lib/secret-box.ts) with the scope as context. */
  secret: string;
  previous_secret: string | null;
  previous_expires_at: Date | null;
  created_at: Date;
}

export interface WebhookDeliveriesTable {
  id: string;
  seq: Generated<number>;
  account_id: string | null;
  type: import('@streamcloud/contract').WebhookEventType;
  resource_type: import('@streamcloud/contract').WebhookResourceType;
  resource_id: string | null;
  stream_id: string | null;
  url: string;
  payload: string;
  occurred_at: Date;
  status: import('@streamcloud/contract').WebhookDeliveryStatus;
  attempts: ColumnType<number, number | undefined, number>;
  retry_step: ColumnType<number, number | undefined, number>;
  next_attempt_at: Date | null;
  claimed_by: string | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
}

export interface WebhookStreamPushesTable {
  input_id: string;
  protocol: string;
  address: string | null;
  started_at: Date;
}

/** The tables of the migrated schema; modules declare theirs beside them too (modules/streams/streams.table.ts…). */
export interface Database {
  accounts: AccountsTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  api_key_uses: ApiKeyUsesTable;
  login_failures: LoginFailuresTable;
  login_trusted_addresses: LoginTrustedAddressesTable;
  account_two_factor: AccountTwoFactorTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  two_factor_tickets: TwoFactorTicketsTable;
  security_settings: SecuritySettingsTable;
  audit_log: AuditLogTable;
  nodes: NodesTable;
  node_load_samples: NodeLoadSamplesTable;
  node_media_ports: NodeMediaPortsTable;
  node_reports: NodeReportsTable;
  node_groups: NodeGroupsTable;
  scaling_rules: ScalingRulesTable;
  node_group_resources: NodeGroupResourcesTable;
  scaling_events: ScalingEventsTable;
  storages: StoragesTable;
  usage_streams: UsageStreamsTable;
  usage_nodes: UsageNodesTable;
  usage_records: UsageRecordsTable;
  usage_hourly: UsageHourlyTable;
  usage_stream_daily: UsageStreamDailyTable;
  usage_daily: UsageDailyTable;
  metric_samples: MetricSamplesTable;
  metric_minutes: MetricRollupTable & { minute: Date };
  metric_hours: MetricRollupTable & { hour: Date };
  metric_account_minutes: MetricAccountRollupTable & { minute: Date };
  metric_account_hours: MetricAccountRollupTable & { hour: Date };
  input_overlays: InputOverlaysTable;
  fallbacks: FallbacksTable;
  snapshot_settings: SnapshotSettingsTable;
  snapshot_images: SnapshotImagesTable;
  recordings: RecordingsTable;
  recording_messages: OwnedMessagesTable & { recording_id: string };
  relays: RelaysTable;
  relay_messages: OwnedMessagesTable & { relay_id: string };
  webhook_secrets: WebhookSecretsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_stream_pushes: WebhookStreamPushesTable;
}
