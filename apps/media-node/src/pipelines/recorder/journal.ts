import { mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecordingFileFormat } from '@streamcloud/contract';
import { writeFileDurably } from '../../durable-file.js';

/**
 * Where a run of a recording is: capturing (the file grows), captured (complete on disk, not uploaded yet),
 * uploaded (the storage confirmed the object; the file is gone, the Completed report may not be).
 */
export type RunPhase = 'capturing' | 'captured' | 'uploaded';

/** What the node keeps on disk about one run (one file) of a recording: no credentials. */
export interface RunRecord {
  runId: string;
  recordingId: string;
  streamId: string;
  format: RecordingFileFormat;
  /** The object's key in the storage's bucket (path prefix, rendered name, extension). */
  objectKey: string;
  startedAt: string;
  phase: RunPhase;
  /** Seconds and bytes recorded, as last known. */
  duration: number;
  length: number;
  /** Bytes of the object in the storage, once uploaded. */
  size: number | null;
}

export const FILE_EXTENSIONS: Record<RecordingFileFormat, string> = { MP4: 'mp4', MKV: 'mkv' };

/**
 * The recordings' journal: each run is a media file `<runId>.<ext>` with a record `<runId>.json` beside it,
 * written before the file exists and replaced atomically at every phase, so a node killed at any moment
 * finds on restart what it was recording or uploading and finishes it. Files whose upload failed for
 * good are moved to `failed/` and kept for the operator.
 */
export class RecordingJournal {
  constructor(readonly dir: string) {}

  async open(): Promise<void> {
    await mkdir(join(this.dir, 'failed'), { recursive: true });
  }

  fileOf(record: Pick<RunRecord, 'runId' | 'format'>): string {
    return join(this.dir, `${record.runId}.${FILE_EXTENSIONS[record.format]}`);
  }

  /** Writes the record (replacing the old one whole: a crash leaves one or the other). */
  async save(record: RunRecord): Promise<void> {
    await writeFileDurably(join(this.dir, `${record.runId}.json`), JSON.stringify(record));
  }

  /** Every run left in the journal, oldest first (records that cannot be read are skipped). */
  async list(): Promise<RunRecord[]> {
    const records: RunRecord[] = [];
    for (const name of await readdir(this.dir)) {
      if (!name.endsWith('.json')) continue;
      try {
        records.push(JSON.parse(await readFile(join(this.dir, name), 'utf8')) as RunRecord);
      } catch {
        // A record being written when the node died: its .tmp is ignored and the older record stays.
      }
    }
    return records.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
  }

  /** The media file is no longer needed (the upload is confirmed). */
  async dropFile(record: RunRecord): Promise<void> {
    await rm(this.fileOf(record), { force: true });
  }

  /** The run is over and reported: its record goes. */
  async forget(record: RunRecord): Promise<void> {
    await rm(join(this.dir, `${record.runId}.json`), { force: true });
  }

  /** The upload failed for good: the file is kept under `failed/`, with its record, out of the journal. */
  async keepFailed(record: RunRecord): Promise<string> {
    const file = this.fileOf(record);
    const kept = join(this.dir, 'failed', `${record.runId}.${FILE_EXTENSIONS[record.format]}`);
    await rename(file, kept).catch(() => undefined);
    await rename(join(this.dir, `${record.runId}.json`), join(this.dir, 'failed', `${record.runId}.json`)).catch(
      () => undefined,
    );
    return kept;
  }
}
