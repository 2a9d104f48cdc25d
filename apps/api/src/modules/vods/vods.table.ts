import type { ColumnType } from 'kysely';

/** Migration 0039: declared beside its module and merged into the database's type. */
export interface VodsTable {
  id: string;
  input_id: string;
  node_id: string | null;
  state: 'Available' | 'Evicted';
  started_at: Date;
  ended_at: Date;
  duration: number;
  size: number;
  created_at: ColumnType<Date, Date | undefined, never>;
  evicted_at: Date | null;
}

declare module '../../db/schema.js' {
  interface Database {
    vods: VodsTable;
  }
}
