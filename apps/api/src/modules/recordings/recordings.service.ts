import { randomUUID } from 'node:crypto';
import {
  API_BASE,
  captureFormatIssues,
  type NodeRecording,
  normalizeFileName,
  RECORDING_MESSAGES,
  RECORDING_PLAYBACK_MESSAGES,
  type Recording,
  type RecordingCreate,
  type RecordingPlayback,
  type RecordingStateReport,
  type RecordingUpdate,
  withUuid,
} from '@streamcloud/contract';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import type { ReportContext } from '../nodes/index.js';
import type { StoragesService } from '../storages/index.js';
import type { MessageRow, StreamJobKind, StreamJobsScope, StreamJobsServiceDeps } from '../stream-jobs/index.js';
import { nodeStreamJobView, StreamJobsService, streamJobView } from '../stream-jobs/index.js';
import { CONTENT_TYPES, type RecordingFile, type RecordingFiles } from './recording-files.js';
import {
  type NewRecording,
  type OwnedRecordingRow,
  type RecordingChanges,
  type RecordingRow,
  type RecordingsRepository,
  StorageGoneError,
} from './recordings.repository.js';

export interface RecordingsServiceDeps extends StreamJobsServiceDeps<'recordings'> {
  storages: Pick<StoragesService, 'get' | 'nodeTarget'>;
  /** Links to recordings' files, and the files from their storages. */
  files: RecordingFiles;
}

export function toRecording(row: OwnedRecordingRow, messages: MessageRow[]): Recording {
  return {
    ...streamJobView(row, messages),
    fileName: row.file_name,
    fileFormat: row.file_format,
    storageId: row.storage_id,
    duration: row.duration,
    length: row.length,
    objectKey: row.object_key,
  };
}

const RECORDING: StreamJobKind<RecordingRow, Recording, RecordingStateReport> = {
  noun: 'recording',
  entity: 'Recording',
  running: 'Recording',
  // Recording → Uploading → Completed, or Error from either.
  next: { Recording: ['Uploading', 'Completed', 'Error'], Uploading: ['Completed', 'Error'] },
  counters: ['duration', 'length', 'uploaded'],
  reportedJob: (report) => report.recordingId,
  // A new run writes a new file: the last run's key is forgotten until the node tells the new one.
  reportedColumns: (report, newRun) =>
    report.objectKey ? { object_key: report.objectKey } : newRun ? { object_key: null } : {},
  present: toRecording,
  completed: (row) => ({
    file: { objectKey: row.object_key, size: row.length, duration: row.duration, storageId: row.storage_id },
  }),
};

/**
 * Recordings are stream jobs (stream-jobs.service.ts) that write the stream to files in a storage: the
 * storage must be one the caller may use and belong to the stream's account.
 */
export class RecordingsService extends StreamJobsService<
  RecordingRow,
  NewRecording,
  RecordingChanges,
  Recording,
  RecordingStateReport,
  'recordings'
> {
  constructor(private readonly deps: RecordingsServiceDeps) {
    super(RECORDING, deps);
  }

  protected jobsOf(uow: StreamJobsScope<'recordings'>): RecordingsRepository {
    return uow.recordings;
  }

  /**
   * Node-facing: the recording-state reports, and then a continuation for each recording whose run was cut while
   * its push went on — by its node's restart, or a file the node could not write (the report says `interrupted`
   * as the run leaves Recording): unless someone stopped it, the
   * recording goes on in a new one with the same settings, which the node starts as soon as the stream is live
   * again — the gap is the outage, not the rest of the broadcast. Only as the run leaves Recording, so the
   * run's later reports and a repeated one add none.
   */
  readonly applyReports = async (
    context: ReportContext<StreamJobsScope<'recordings'>>,
    reports: RecordingStateReport[],
  ): Promise<void> => {
    const recordings = context.uow.recordings;
    // One per recording: a batch may carry several reports of the same cut run (Uploading, then Completed), and
    // each would otherwise see the run leave Recording and continue it again.
    const cut = [
      ...new Map(reports.filter((report) => report.interrupted).map((report) => [report.recordingId, report])).values(),
    ];
    const before = new Map<string, { state: string; lost: boolean }>();
    for (const report of cut) {
      const row = await recordings.findById(report.recordingId);
      if (row) before.set(row.id, { state: row.state, lost: row.runner_lost_at !== null });
    }
    await this.applyStateReports(context, reports);
    for (const report of cut) {
      const row = await recordings.findById(report.recordingId);
      const was = row && before.get(row.id);
      if (!row || !was) continue;
      // The run left Recording with this report, or its node, back, took up the run its silence had put in
      // Error (applying a node's report clears `runner_lost_at`).
      const left = was.state === 'Recording' ? row.state !== 'Recording' : was.lost && row.runner_lost_at === null;
      if (!left) continue;
      if (row.autostart || row.stop_requested_at !== null) continue;
      const continuation = {
        id: randomUUID(),
        input_id: row.input_id,
        storage_id: row.storage_id,
        // A new name: the cut run's object keeps its own.
        file_name: withUuid(row.file_name),
        file_format: row.file_format,
        autostart: false,
        callback_uri: row.callback_uri,
        capture: row.capture,
        state: 'Recording' as const,
      };
      const why =
        report.interruptedBy === 'write'
          ? `Continues recording ${row.id}, whose file node ${context.node.name} could not write (its disk full or failing)`
          : `Continues recording ${row.id}, which the restart of node ${context.node.name} cut`;
      const continued = await this.insertRunning(context.uow, continuation, why, context.receivedAt).then(
        () => true,
        (error: unknown) => {
          // The storage went meanwhile: nothing to record into, and the report itself must still apply.
          if (error instanceof StorageGoneError) return false;
          throw error;
        },
      );
      const text = continued
        ? `Goes on in recording ${continuation.id}`
        : 'Does not go on: its storage was deleted meanwhile';
      await recordings.addMessages(row.id, [{ at: context.receivedAt, level: 'info', text }]);
    }
  };

  async create(auth: AuthContext, body: RecordingCreate): Promise<Recording> {
    const stream = await this.deps.uow.access.require(auth, 'stream', body.streamId);
    await this.checkStorage(auth, stream.ownerId, body.storageId);
    return storageStillThere(() =>
      this.add(
        auth,
        {
          id: randomUUID(),
          input_id: body.streamId,
          storage_id: body.storageId,
          file_name: body.fileName,
          file_format: body.fileFormat,
          autostart: body.autostart,
          callback_uri: body.callbackUri ?? null,
          capture: body.capture,
          state: 'Recording',
        },
        { streamId: body.streamId, storageId: body.storageId, fileFormat: body.fileFormat, autostart: body.autostart },
      ),
    );
  }

  async list(auth: AuthContext, active: boolean, offset: number, limit: number) {
    const { rows, total } = await this.deps.uow.recordings.list(
      this.deps.uow.access.accountScope(auth, undefined),
      active,
      offset,
      limit,
    );
    return { items: await this.presentAll(rows), total };
  }

  async update(auth: AuthContext, id: string, body: RecordingUpdate): Promise<Recording> {
    const row = await this.owned(auth, id);
    if (body.streamId !== undefined && body.streamId !== row.input_id) {
      throw badRequest(RECORDING_MESSAGES.creationOnly('Stream ID'), 'CREATION_ONLY');
    }
    if (body.fileFormat !== undefined && body.fileFormat !== row.file_format) {
      throw badRequest(RECORDING_MESSAGES.creationOnly('File format'), 'CREATION_ONLY');
    }
    if (body.autostart !== undefined && body.autostart !== row.autostart) {
      throw badRequest(RECORDING_MESSAGES.creationOnly('Autostart'), 'CREATION_ONLY');
    }
    const [formatIssue] = captureFormatIssues(body.capture.tracks, row.file_format);
    if (formatIssue) throw badRequest(formatIssue.message, 'CODEC_NOT_SUPPORTED');
    if (body.storageId !== row.storage_id) await this.checkStorage(auth, row.owner_id, body.storageId);
    await storageStillThere(() =>
      this.deps.uow.transaction(async ({ recordings }) => {
        await recordings.lockStorage(body.storageId);
        await recordings.update(
          id,
          {
            file_name: normalizeFileName(body.fileName, { autostart: row.autostart }),
            storage_id: body.storageId,
            callback_uri: body.callbackUri ?? null,
            capture: body.capture,
          },
          this.deps.clock.now(),
        );
      }),
    );
    await this.audit(auth, 'update', id, { storageId: body.storageId });
    return this.get(auth, id);
  }

  /** Links to play and download a Completed recording's file (docs/decisions.md, "Recordings you can watch"). */
  async playback(auth: AuthContext, id: string): Promise<RecordingPlayback> {
    const row = await this.owned(auth, id);
    if (row.state !== 'Completed') {
      throw conflict(RECORDING_PLAYBACK_MESSAGES.notCompleted(row.state), 'RECORDING_NOT_COMPLETED');
    }
    if (!row.object_key) throw conflict(RECORDING_PLAYBACK_MESSAGES.noObject, 'RECORDING_WITHOUT_FILE');
    const { files } = this.deps;
    const expiresAt = files.expiry(this.deps.clock.now());
    const link = (disposition: 'play' | 'save') =>
      `${API_BASE}/recordings/${id}/file?${new URLSearchParams({ token: files.token(id, disposition, expiresAt) })}`;
    const playable = row.file_format === 'MP4';
    return {
      url: link('play'),
      downloadUrl: link('save'),
      expiresAt: expiresAt.toISOString(),
      contentType: CONTENT_TYPES[row.file_format],
      playable,
      reason: playable ? null : RECORDING_PLAYBACK_MESSAGES.mkv,
    };
  }

  /** The file of a link's token (its only credential), or the asked byte range of it, from the storage. */
  async file(id: string, token: string, range: string | undefined): Promise<RecordingFile> {
    const disposition = this.deps.files.verify(id, token, this.deps.clock.now());
    if (!disposition) throw forbidden(RECORDING_PLAYBACK_MESSAGES.badLink);
    const row = await this.jobs.findById(id);
    if (row?.state !== 'Completed' || !row.object_key) throw notFound('Recording');
    const target = await this.deps.storages.nodeTarget(row.storage_id);
    if (!target) throw notFound('Storage');
    return this.deps.files.open(
      target,
      { key: row.object_key, format: row.file_format, streamId: row.input_id },
      disposition,
      range,
    );
  }

  /** Node-facing: what the node should run or finish, with the storage's credentials. */
  async ofNode(node: NodeIdentity): Promise<NodeRecording[]> {
    const rows = await this.jobs.ofNode(node.id);
    return Promise.all(
      rows.map(async (row) => ({
        ...nodeStreamJobView(row),
        fileName: row.file_name,
        fileFormat: row.file_format,
        storage: await this.deps.storages.nodeTarget(row.storage_id),
      })),
    );
  }

  /** 404 for a storage the caller may not use; 400 when it belongs to another account than the stream. */
  private async checkStorage(auth: AuthContext, streamOwnerId: string | null, storageId: string): Promise<void> {
    const storage = await this.deps.storages.get(auth, storageId);
    if (storage.ownerId !== streamOwnerId) {
      throw badRequest("The storage must belong to the stream's account", 'STORAGE_OF_ANOTHER_ACCOUNT');
    }
  }
}

/** A storage deleted between the check and the write answers as if it had never been there. */
async function storageStillThere<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StorageGoneError) throw notFound('Storage');
    throw error;
  }
}
