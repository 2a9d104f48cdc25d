import type { ColumnType } from 'kysely';

/** Migration 0041: a tag on a stream, with the stream's owner (the streams with a tag are read by account). */
export interface StreamTagsTable {
  input_id: string;
  owner_id: string;
  tag: string;
  created_at: ColumnType<Date, Date | undefined, never>;
}

declare module '../../db/schema.js' {
  interface Database {
    stream_tags: StreamTagsTable;
  }
}
