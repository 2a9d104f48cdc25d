import type { ColumnType } from 'kysely';

/** Migration 0038: declared beside its module and merged into the database's type. */
export interface ClipsTable {
  id: string;
  input_id: string;
  recording_id: string | null;
  storage_id: string | null;
  node_id: string | null;
  caption: string;
  /** A recording clip's source: the recording's object and storage when it was asked for. */
  source_object_key: string | null;
  source_storage_id: string | null;
  from_at: Date | null;
  to_at: Date | null;
  from_seconds: number | null;
  to_seconds: number | null;
  state: 'Pending' | 'Processing' | 'Ready' | 'Error';
  message: string | null;
  duration: number | null;
  size: number | null;
  object_key: string | null;
  callback_uri: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  finished_at: Date | null;
}

declare module '../../db/schema.js' {
  interface Database {
    clips: ClipsTable;
  }
}
