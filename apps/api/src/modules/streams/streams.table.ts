import type {
  InputFormat,
  LadderRendition,
  MediaPorts,
  NodeGroupAssignment,
  TrackInfoLike,
  TranscodeTrack,
} from '@streamcloud/contract';
import type { ColumnType, Generated } from 'kysely';
import type { CreatedAt } from '../../db/schema.js';

// The streams module's tables (declared beside it and merged into the database's type) and the rows its
// repositories answer.

/**
 * A token rotation (0032) on a stream's ingest token or an output's viewer token: the token it replaced, taken
 * until its window ends, and when. Null until the first rotation; written by the rotation only.
 */
export interface TokenRotationColumns {
  previous_access_token: string | null;
  previous_access_token_expires_at: Date | null;
  access_token_rotated_at: Date | null;
}

export interface InputsTable extends TokenRotationColumns {
  id: string;
  owner_id: string;
  caption: string | null;
  format: string;
  status: 'Pending' | 'Idle' | 'Ingestion' | 'Error' | 'Fallback';
  access: 'Public' | 'PrivateIngoing' | 'Private';
  access_token: string | null;
  name: string;
  callback_uri: string | null;
  streamer_ip: string | null;
  streamer_latitude: number | null;
  streamer_longitude: number | null;
  gslb: boolean;
  parameters: ColumnType<Record<string, unknown>, string | undefined, string>;
  node_id: string | null;
  /** An Internode stream's source stream (null for other formats, and once the source is deleted). */
  source_input_id: string | null;
  output: ColumnType<{ version: 2; passthrough: boolean; tracks: TranscodeTrack[] }, string, string>;
  /** The HLS ladder its ingest node serves now, as reported (null: none); edges get it with their inputs. */
  renditions: ColumnType<LadderRendition[] | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface InputStatusMessagesTable {
  id: Generated<number>;
  input_id: string;
  at: Date;
  level: 'info' | 'warning' | 'error';
  text: string;
}

/** A reported track: the columns the contract describes a track by (`describeTrack`), and its sample rate. */
export interface InputTracksTable extends TrackInfoLike {
  input_id: string;
  source: 'incoming' | 'outgoing';
  idx: number;
  rate: number | null;
}

export interface OutputsTable extends TokenRotationColumns {
  id: string;
  input_id: string;
  format: string;
  name: string;
  callback_uri: string | null;
  viewer_ip: string | null;
  viewer_latitude: number | null;
  viewer_longitude: number | null;
  access_token: string | null;
  /** Migration 0031: Public, Private (access_token plays it) or Signed (signed playback tokens only). */
  access: 'Public' | 'Private' | 'Signed';
  /** Migration 0034: an HLS output's packaging (Standard: nginx-rtmp's TS; Low: LL-HLS); null for other formats. */
  hls_latency: 'Standard' | 'Low' | null;
  /** Migration 0036: an HLS output's live rewind window, minutes (0: off). */
  dvr_window_minutes: number;
  /** When the output's sessions were last cleared; the node disconnects its viewers when this changes. */
  sessions_cleared_at: Date | null;
  /** Preview sessions (the console's player) the node last reported: not viewers, not billed. */
  preview_sessions: number;
  /** The edge node serving the output's viewers; null: the stream's ingest node. */
  node_id: string | null;
  /** Null node_id because placement chose the ingest node (it stays); false: for lack of an edge (it moves to one). */
  ingest_chosen: boolean;
  created_at: CreatedAt;
}

export interface OutputSessionsTable {
  output_id: string;
  session_id: string;
  ip_address: string | null;
  started_at: Date;
  bytes: number;
  /** Migration 0035: a capped stream-wide playback token's digest (its sessions count on every node); else null. */
  token_id: string | null;
}

export interface IngressEndpointsTable {
  input_id: string;
  name: string;
  created_at: CreatedAt;
  /** When a push to this name last moved the stream to a node (0021). */
  claimed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Inputs per account, kept by triggers on inputs (migration 0011). */
export interface InputCountsTable {
  owner_id: string;
  count: string | number;
}

declare module '../../db/schema.js' {
  interface Database {
    inputs: InputsTable;
    input_counts: InputCountsTable;
    input_status_messages: InputStatusMessagesTable;
    input_tracks: InputTracksTable;
    outputs: OutputsTable;
    output_sessions: OutputSessionsTable;
    ingress_endpoints: IngressEndpointsTable;
  }
}

/** A stream as other modules may read it. */
export interface StreamDescription {
  id: string;
  ownerId: string;
  format: InputFormat;
  name: string;
  caption: string | null;
}

/** A stream as stored (table `inputs`). */
export type StreamRow = Omit<InputsTable, 'created_at' | 'updated_at' | 'parameters' | 'output' | 'renditions'> & {
  parameters: Record<string, unknown>;
  output: { version: 2; passthrough: boolean; tracks: TranscodeTrack[] };
  created_at: Date;
  updated_at: Date;
};
export type NewStream = Omit<StreamRow, 'created_at' | 'updated_at' | keyof TokenRotationColumns>;
export type StatusMessageRow = Omit<InputStatusMessagesTable, 'id' | 'input_id'>;
export type TrackRow = Omit<InputTracksTable, 'input_id' | 'source'>;

export interface NodeHostRow {
  id: string;
  name: string;
  protocol: string;
  hostname: string;
  port: number;
  media_ports: MediaPorts | null;
  location_code: string | null;
  latitude: number | null;
  longitude: number | null;
  /** The node groups the node is in (ordered by name): placement and the dashboard read them. */
  groups: NodeHostGroup[];
}

/** An Internode stream's source as the stream's dashboard shows it: its name and the node it is on. */
export interface InternodeSourceRow {
  id: string;
  name: string;
  node_host: NodeHostRow | null;
}

/**
 * A stream that is not live on a node it must leave: one an admin drains, or one another customer's group keeps
 * for itself (docs/decisions.md, "Node groups drive placement" and "Draining a node").
 */
export type StreamOnNodeToLeave = StreamRow & { node_name: string; leaving: 'draining' | 'reserved' };

/** A node placement weighs: its host and how many streams it already carries. */
export interface CandidateNodeRow extends NodeHostRow {
  stream_count: number;
}

export interface NodeHostGroup {
  id: string;
  name: string;
  assignment: NodeGroupAssignment;
  /** Null: the streaming cloud's own group. */
  owner_id: string | null;
}

/** The versions `GET /node/inputs` carries per stream (contract `ConfigVersions`), as columns. */
export interface AssignedVersions {
  config_version: string;
  snapshots_version: string;
  recordings_version: string;
  relays_version: string;
  fallbacks_version: string;
  outputs_version: string;
}
