import { randomUUID } from 'node:crypto';
import {
  ACTIVE_RECORDING_STATES,
  captureFormatIssues,
  type NodeRecording,
  normalizeFileName,
  RECORDING_MESSAGES,
  type Recording,
  type RecordingCreate,
  type RecordingState,
  type RecordingStateReport,
  type RecordingUpdate,
  type UploadTarget,
} from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { SecretBoxError } from '../../lib/secret-box.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { ReportContext } from '../nodes/node-reports.service.js';
import type { StorageUsage } from '../storages/storage-usage.js';
import type { StoragesService } from '../storages/storages.service.js';
import type { InputRow } from '../streams/streams.repository.js';
import type { StreamsService } from '../streams/streams.service.js';
import { type MessageRow, type OwnedRecordingRow, RecordingsRepository } from './recordings.repository.js';

export interface RecordingsServiceDeps {
  db: Db;
  streams: Pick<StreamsService, 'owned'>;
  storages: Pick<StoragesService, 'get' | 'uploadTarget'>;
  audit: AuditRepository;
  clock: Clock;
}

/**
 * Which state a node may report from which: Recording → Uploading → Completed, or Error from either.
 * An autostarting recording that was not stopped starts a new run (Recording) after Completed or Error.
 */
export function recordingTransitionAllowed(
  row: Pick<OwnedRecordingRow, 'state' | 'autostart' | 'stop_requested_at'>,
  to: RecordingState,
): boolean {
  if (row.state === to) return true;
  switch (row.state) {
    case 'Recording':
      return to === 'Uploading' || to === 'Completed' || to === 'Error';
    case 'Uploading':
      return to === 'Completed' || to === 'Error';
    case 'Completed':
    case 'Error':
      return to === 'Recording' && row.autostart && row.stop_requested_at === null;
  }
}

export function toRecording(row: OwnedRecordingRow, messages: MessageRow[]): Recording {
  return {
    id: row.id,
    streamId: row.input_id,
    fileName: row.file_name,
    fileFormat: row.file_format,
    storageId: row.storage_id,
    autostart: row.autostart,
    callbackUri: row.callback_uri,
    capture: row.capture,
    state: row.state,
    duration: row.duration,
    length: row.length,
    uploaded: row.uploaded,
    messages: messages.map((message) => ({ at: message.at.toISOString(), level: message.level, text: message.text })),
    stopRequested: row.stop_requested_at !== null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The recordings module's answer to the storages module: how many recordings use a storage. */
export function recordingsStorageUsage(db: Db): StorageUsage {
  const recordings = new RecordingsRepository(db);
  return { recordingsUsing: (storageId) => recordings.countByStorage(storageId) };
}

/**
 * Recordings belong to their stream's account: the stream's owner and ADMIN see and change them; anyone
 * else gets 404. The storage must be one the caller may use and belong to the stream's account.
 */
export class RecordingsService {
  private readonly recordings: RecordingsRepository;

  constructor(private readonly deps: RecordingsServiceDeps) {
    this.recordings = new RecordingsRepository(deps.db);
  }

  async create(auth: AuthContext, body: RecordingCreate): Promise<Recording> {
    const stream = await this.deps.streams.owned(auth, body.streamId);
    await this.checkStorage(auth, stream, body.storageId);
    const id = randomUUID();
    const now = this.deps.clock.now();
    await this.recordings.transaction(async (recordings) => {
      await recordings.insert({
        id,
        input_id: stream.id,
        storage_id: body.storageId,
        file_name: body.fileName,
        file_format: body.fileFormat,
        autostart: body.autostart,
        callback_uri: body.callbackUri ?? null,
        capture: body.capture,
        state: 'Recording',
      });
      await recordings.addMessages(id, [{ at: now, level: 'info', text: `Created by ${auth.username}` }]);
    });
    await this.audit(auth, 'recording.create', id, {
      streamId: stream.id,
      storageId: body.storageId,
      fileFormat: body.fileFormat,
      autostart: body.autostart,
    });
    return this.get(auth, id);
  }

  async get(auth: AuthContext, id: string): Promise<Recording> {
    return this.present(await this.owned(auth, id));
  }

  async list(auth: AuthContext, active: boolean, offset: number, limit: number) {
    const { rows, total } = await this.recordings.list(
      auth.role === 'ADMIN' ? null : auth.accountId,
      active ? ACTIVE_RECORDING_STATES : null,
      offset,
      limit,
    );
    return { items: await this.presentAll(rows), total };
  }

  async listByStream(auth: AuthContext, streamId: string, active: boolean): Promise<Recording[]> {
    await this.deps.streams.owned(auth, streamId);
    return this.presentAll(await this.recordings.listByInput(streamId, active ? ACTIVE_RECORDING_STATES : null));
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
    if (body.storageId !== row.storage_id) {
      await this.checkStorage(auth, await this.deps.streams.owned(auth, row.input_id), body.storageId);
    }
    await this.recordings.update(
      id,
      {
        file_name: normalizeFileName(body.fileName, { autostart: row.autostart }),
        storage_id: body.storageId,
        callback_uri: body.callbackUri ?? null,
        capture: body.capture,
      },
      this.deps.clock.now(),
    );
    await this.audit(auth, 'recording.update', id, { storageId: body.storageId });
    return this.get(auth, id);
  }

  /** Asks the node to stop; only in Recording. Asking again while the node finishes changes nothing. */
  async stop(auth: AuthContext, id: string): Promise<Recording> {
    const row = await this.owned(auth, id);
    if (row.state !== 'Recording') {
      throw conflict(`A recording can be stopped only while Recording; it is ${row.state}`, 'INVALID_STATE');
    }
    if (row.stop_requested_at === null) {
      const now = this.deps.clock.now();
      await this.recordings.transaction(async (recordings) => {
        await recordings.update(id, { stop_requested_at: now }, now);
        await recordings.addMessages(id, [{ at: now, level: 'info', text: `Stopped by ${auth.username}` }]);
      });
      await this.audit(auth, 'recording.stop', id, {});
    }
    return this.get(auth, id);
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const row = await this.owned(auth, id);
    if (row.state !== 'Completed' && row.state !== 'Error') {
      throw conflict(`A recording can be deleted only when Completed or Error; it is ${row.state}`, 'INVALID_STATE');
    }
    if (!(await this.recordings.delete(id))) throw notFound('Recording');
    await this.audit(auth, 'recording.delete', id, { streamId: row.input_id });
  }

  /** Node-facing: what the node should run or finish, with the storage's credentials. */
  async ofNode(node: NodeIdentity): Promise<NodeRecording[]> {
    const rows = await this.recordings.ofNode(node.id);
    return Promise.all(
      rows.map(async (row) => ({
        id: row.id,
        streamId: row.input_id,
        streamName: row.input_name,
        fileName: row.file_name,
        fileFormat: row.file_format,
        autostart: row.autostart,
        capture: row.capture,
        state: row.state,
        stopRequested: row.stop_requested_at !== null,
        callbackUri: row.callback_uri,
        storage: await this.uploadTarget(row.storage_id),
      })),
    );
  }

  /**
   * Node-facing: applies recording-state reports inside the batch's transaction. A report about a
   * recording of a stream this node does not serve, or with a state the rules do not allow from the
   * current one (a stale or out-of-order report), changes nothing.
   */
  readonly applyStateReports = async (context: ReportContext, reports: RecordingStateReport[]): Promise<void> => {
    const recordings = new RecordingsRepository(context.db);
    for (const report of reports) {
      const row = await recordings.findById(report.recordingId);
      if (!row || row.node_id !== context.node.id) continue;
      const state = report.state ?? row.state;
      if (!recordingTransitionAllowed(row, state)) continue;
      const newRun = state === 'Recording' && row.state !== 'Recording';
      await recordings.update(
        row.id,
        {
          state,
          duration: report.duration ?? (newRun ? 0 : row.duration),
          length: report.length ?? (newRun ? 0 : row.length),
          uploaded: report.uploaded ?? (newRun ? 0 : row.uploaded),
        },
        context.receivedAt,
      );
      const at = report.at ? new Date(report.at) : context.receivedAt;
      await recordings.addMessages(
        row.id,
        (report.messages ?? []).map((message) => ({ at, level: message.level, text: message.text })),
      );
    }
  };

  private async owned(auth: AuthContext, id: string): Promise<OwnedRecordingRow> {
    const row = await this.recordings.findById(id);
    if (!row || (auth.role !== 'ADMIN' && row.owner_id !== auth.accountId)) throw notFound('Recording');
    return row;
  }

  /** 404 for a storage the caller may not use; 400 when it belongs to another account than the stream. */
  private async checkStorage(auth: AuthContext, stream: InputRow, storageId: string): Promise<void> {
    const storage = await this.deps.storages.get(auth, storageId);
    if (storage.ownerId !== stream.owner_id) {
      throw badRequest("The storage must belong to the stream's account", 'STORAGE_OF_ANOTHER_ACCOUNT');
    }
  }

  private async uploadTarget(storageId: string): Promise<UploadTarget | null> {
    try {
      return await this.deps.storages.uploadTarget(storageId);
    } catch (error) {
      if (error instanceof SecretBoxError) return null;
      throw error;
    }
  }

  private async present(row: OwnedRecordingRow): Promise<Recording> {
    const messages = await this.recordings.messages([row.id]);
    return toRecording(row, messages.get(row.id) ?? []);
  }

  private async presentAll(rows: OwnedRecordingRow[]): Promise<Recording[]> {
    const messages = await this.recordings.messages(rows.map((row) => row.id));
    return rows.map((row) => toRecording(row, messages.get(row.id) ?? []));
  }

  private audit(auth: AuthContext, action: string, targetId: string, details: Record<string, unknown>) {
    return this.deps.audit.record(
      {
        actorId: auth.accountId,
        actingAdminId: auth.actingAdminId,
        action,
        targetType: 'recording',
        targetId,
        details,
      },
      this.deps.clock.now(),
    );
  }
}
