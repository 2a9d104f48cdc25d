import { randomUUID } from 'node:crypto';
import {
  API_BASE,
  CLIP_LINK_TTL_SECONDS,
  CLIP_MESSAGES,
  type Clip,
  type ClipCreate,
  type ClipPlayback,
  type ClipState,
  type ClipStateReport,
  type ClipStorageUse,
  DVR_WINDOW_MAX_MINUTES,
  type NodeClip,
} from '@streamcloud/contract';
import { keyPrefix } from '@streamcloud/s3';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, forbidden, invalidField, notFound } from '../../lib/errors.js';
import { AuditTrail } from '../audit/audit-trail.js';
import type { NodesService } from '../nodes/index.js';
import { measuredAt, type ReportContext } from '../nodes/index.js';
import type { RecordingFile, RecordingFiles, RecordingsService } from '../recordings/index.js';
import type { StoragesService } from '../storages/index.js';
import type { ClipOutcome, ClipRow } from './clips.repository.js';

const STORYBOARD_VTT = 'storyboard.vtt';
/** A 10-minute clip's VTT is ~15 KB (300 cues): far more is no storyboard of ours. */
const STORYBOARD_VTT_MAX_BYTES = 1024 * 1024;

type ClipsScope = Scope<'clips' | 'access' | 'audit' | 'events'>;

export interface ClipsServiceDeps {
  uow: ClipsScope;
  clock: Clock;
  storages: Pick<StoragesService, 'get' | 'nodeTarget'>;
  recordings: Pick<RecordingsService, 'get' | 'listByStream'>;
  nodes: Pick<NodesService, 'tellClipsWaiting'>;
  /** Links to clips' files and the files from their storages (the recordings' helper, keyed for clips). */
  files: RecordingFiles;
  log?: { warn(message: string): void };
}

/** A clip not Ready or in Error this long after it was asked for goes to Error (its node is gone or stuck). */
export const CLIP_DEADLINE_MS = 60_000;
/** `to` may be this far past the API's clock (the player's clock and ours differ a little). */
const CLOCK_SLACK_MS = 5_000;

/** The moves a clip may make; Ready and Error are final. One statement makes each, so one change wins. */
const NEXT: Record<ClipState, readonly ClipState[]> = {
  Pending: ['Processing', 'Ready', 'Error'],
  Processing: ['Ready', 'Error'],
  Ready: [],
  Error: [],
};
const fromStates = (to: ClipState): ClipState[] =>
  (Object.keys(NEXT) as ClipState[]).filter((state) => NEXT[state].includes(to));

export function toClip(row: ClipRow): Clip {
  return {
    id: row.id,
    streamId: row.input_id,
    recordingId: row.recording_id,
    storageId: row.storage_id,
    caption: row.caption,
    from: row.from_at ? row.from_at.toISOString() : (row.from_seconds ?? 0),
    to: row.to_at ? row.to_at.toISOString() : (row.to_seconds ?? 0),
    state: row.state,
    message: row.message,
    duration: row.duration,
    size: row.size,
    objectKey: row.object_key,
    callbackUri: row.callback_uri,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

/**
 * Clips (docs/decisions.md, "Clips (issue 35)"): the rules of asking for one (source, range, storage), the node
 * that cuts it (told at once with the refresh mode `Clips`), its states from the node's reports (one winner per
 * change), the links to its file, and the deadline that ends a clip no node finished.
 */
export class ClipsService {
  private readonly trail: AuditTrail;

  constructor(private readonly deps: ClipsServiceDeps) {
    this.trail = new AuditTrail(deps.uow.audit, deps.clock, 'clip');
  }

  async create(auth: AuthContext, body: ClipCreate): Promise<Clip> {
    const { uow, clock } = this.deps;
    const now = clock.now();
    const id = randomUUID();
    let streamId: string;
    let range: Pick<ClipRow, 'from_at' | 'to_at' | 'from_seconds' | 'to_seconds'>;
    let storageId = body.storageId;
    let source: Pick<ClipRow, 'source_object_key' | 'source_storage_id'> = {
      source_object_key: null,
      source_storage_id: null,
    };
    if (body.recordingId !== undefined) {
      const recording = await this.deps.recordings.get(auth, body.recordingId);
      if (recording.state !== 'Completed')
        throw invalidField('recordingId', CLIP_MESSAGES.recordingNotCompleted(recording.state));
      if (!recording.objectKey) throw invalidField('recordingId', CLIP_MESSAGES.recordingWithoutFile);
      if ((body.to as number) > recording.duration)
        throw invalidField('to', CLIP_MESSAGES.beyondRecording(recording.duration));
      streamId = recording.streamId;
      storageId ??= recording.storageId;
      source = { source_object_key: recording.objectKey, source_storage_id: recording.storageId };
      range = { from_at: null, to_at: null, from_seconds: body.from as number, to_seconds: body.to as number };
    } else {
      streamId = body.streamId as string;
      await uow.access.require(auth, 'stream', streamId);
      const from = new Date(body.from as string);
      const to = new Date(body.to as string);
      if (to.getTime() > now.getTime() + CLOCK_SLACK_MS) throw invalidField('to', CLIP_MESSAGES.inFuture);
      if (from.getTime() < now.getTime() - DVR_WINDOW_MAX_MINUTES * 60_000)
        throw invalidField('from', CLIP_MESSAGES.beforeWindow);
      range = { from_at: from, to_at: to, from_seconds: null, to_seconds: null };
      storageId ??= (await this.deps.recordings.listByStream(auth, streamId, false)).at(-1)?.storageId;
    }
    const stream = await uow.access.require(auth, 'stream', streamId);
    if (!storageId) throw invalidField('storageId', CLIP_MESSAGES.noStorage);
    const storage = await this.deps.storages.get(auth, storageId);
    if (storage.ownerId !== stream.ownerId) throw invalidField('storageId', CLIP_MESSAGES.storageOfAnotherAccount);
    if (!stream.nodeId) throw conflict(CLIP_MESSAGES.noNode, 'NO_NODE');
    await uow.clips.insert({
      id,
      input_id: streamId,
      recording_id: body.recordingId ?? null,
      storage_id: storageId,
      node_id: stream.nodeId,
      caption: body.caption,
      ...range,
      ...source,
      state: 'Pending',
      callback_uri: body.callbackUri ?? null,
      created_at: now,
    });
    await this.trail.record(auth, 'clip.create', id, { streamId, recordingId: body.recordingId ?? null, storageId });
    // Told now rather than at its next read; one that cannot be reached reads the clip a few seconds later.
    await this.deps.nodes.tellClipsWaiting(stream.nodeId);
    return this.get(auth, id);
  }

  async list(auth: AuthContext, streamId: string): Promise<Clip[]> {
    await this.deps.uow.access.require(auth, 'stream', streamId);
    return (await this.deps.uow.clips.ofStream(streamId)).map(toClip);
  }

  /** What clips take in the caller's storages (every account's for an ADMIN). */
  async storageUse(auth: AuthContext): Promise<ClipStorageUse[]> {
    const rows = await this.deps.uow.clips.useByStorage(auth.role === 'ADMIN' ? null : auth.accountId);
    return rows.map((row) => ({ storageId: row.storage_id, clips: row.clips, bytes: row.bytes }));
  }

  async get(auth: AuthContext, id: string): Promise<Clip> {
    return toClip(await this.owned(auth, id));
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const row = await this.owned(auth, id);
    if (row.state !== 'Ready' && row.state !== 'Error')
      throw conflict(CLIP_MESSAGES.notFinished(row.state), 'CLIP_BUSY');
    if (row.object_key && row.storage_id) {
      const target = await this.deps.storages.nodeTarget(row.storage_id);
      const failure = target && (await this.deps.files.remove(target, row.object_key));
      // The row goes anyway: a file the storage kept is its owner's to remove, and the log says which.
      if (failure) this.deps.log?.warn(`Clip ${id}: its file was not removed from the storage: ${failure}`);
    }
    await this.deps.uow.clips.delete(id);
    await this.trail.record(auth, 'clip.delete', id, { streamId: row.input_id });
  }

  /** Links to play and download a Ready clip's file, served from its storage through the control plane. */
  async playback(auth: AuthContext, id: string): Promise<ClipPlayback> {
    const row = await this.owned(auth, id);
    if (row.state !== 'Ready' || !row.object_key) throw conflict(CLIP_MESSAGES.notReady(row.state), 'CLIP_NOT_READY');
    const { files } = this.deps;
    const expiresAt = new Date(this.deps.clock.now().getTime() + CLIP_LINK_TTL_SECONDS * 1000);
    const query = (disposition: 'play' | 'save') =>
      new URLSearchParams({ token: files.token(id, disposition, expiresAt) }).toString();
    return {
      url: `${API_BASE}/clips/${id}/file?${query('play')}`,
      downloadUrl: `${API_BASE}/clips/${id}/file?${query('save')}`,
      storyboardUrl: `${API_BASE}/clips/${id}/storyboard/${STORYBOARD_VTT}?${query('play')}`,
      expiresAt: expiresAt.toISOString(),
    };
  }

  /** The file of a link's token (its only credential), or the asked byte range of it. */
  async file(id: string, token: string, range: string | undefined): Promise<RecordingFile> {
    const { row, target, disposition } = await this.served(id, token);
    return this.deps.files.open(target, { key: row.key, format: 'MP4', streamId: row.streamId }, disposition, range);
  }

  /**
   * A file of the clip's storyboard, beside its MP4 in the storage (`<path>/clips/<id>/`, made by the node when it
   * cut the clip), by a link's token. The VTT's sheet URIs get the token too: a sheet is fetched by the browser
   * from the VTT's cues, with no other credential.
   */
  async storyboard(id: string, file: string, token: string): Promise<RecordingFile> {
    const { row, target } = await this.served(id, token);
    const key = `${row.key.replace(/\.mp4$/, '')}/${file}`;
    if (file !== STORYBOARD_VTT)
      return this.deps.files.open(
        target,
        { key, format: 'MP4', contentType: 'image/jpeg', streamId: row.streamId },
        'play',
        undefined,
      );
    const vtt = await this.deps.files.readText(target, key, STORYBOARD_VTT_MAX_BYTES);
    const signed = vtt.replace(
      /^(storyboard-\d{1,4}\.jpg)#/gm,
      (_, sheet: string) => `${sheet}?${new URLSearchParams({ token })}#`,
    );
    return this.deps.files.text(signed, 'text/vtt; charset=utf-8', row.streamId);
  }

  /** A Ready clip's object and storage for a valid link's token: 403 for a bad token, 404 for a clip gone. */
  private async served(id: string, token: string) {
    const disposition = this.deps.files.verify(id, token, this.deps.clock.now());
    if (!disposition) throw forbidden(CLIP_MESSAGES.badLink);
    const row = await this.deps.uow.clips.findById(id);
    if (row?.state !== 'Ready' || !row.object_key || !row.storage_id) throw notFound('Clip');
    const target = await this.deps.storages.nodeTarget(row.storage_id);
    if (!target) throw notFound('Storage');
    return { row: { key: row.object_key, streamId: row.input_id }, target, disposition };
  }

  /** Node-facing: the clips the node should cut, with the storages' credentials and where each file goes. */
  async ofNode(node: NodeIdentity): Promise<NodeClip[]> {
    const rows = await this.deps.uow.clips.waitingOn(node.id);
    return Promise.all(rows.map((row) => this.nodeView(row)));
  }

  /** The `clip-state` reports of a batch: each moves its clip if the move is allowed and the clip is the node's. */
  readonly applyStateReports = async (context: ReportContext, reports: ClipStateReport[]): Promise<void> => {
    for (const report of reports) {
      const at = measuredAt(context, report.at);
      const final = report.state === 'Ready' || report.state === 'Error';
      await this.move(
        context.uow,
        report.clipId,
        report.state,
        {
          ...(report.message ? { message: report.message } : {}),
          ...(report.duration !== undefined ? { duration: report.duration } : {}),
          ...(report.size !== undefined ? { size: report.size } : {}),
          ...(report.objectKey ? { object_key: report.objectKey } : {}),
          ...(final ? { finished_at: at } : {}),
        },
        context.node.id,
        at,
      );
    }
  };

  /** Clips no node finished within the deadline go to Error (their node went away or cannot cut them). */
  async expireOverdue(): Promise<number> {
    const now = this.deps.clock.now();
    const overdue = await this.deps.uow.clips.overdue(new Date(now.getTime() - CLIP_DEADLINE_MS));
    let expired = 0;
    for (const row of overdue) {
      const message = `No media node finished the clip within ${CLIP_DEADLINE_MS / 1000} s`;
      const moved = await this.deps.uow.transaction((uow) =>
        this.move(uow, row.id, 'Error', { message, finished_at: now }, null, now),
      );
      if (moved) expired++;
    }
    return expired;
  }

  /** One change of state, with its webhook on the same transaction; false when another change won. */
  private async move(
    uow: ClipsScope,
    id: string,
    state: ClipState,
    outcome: ClipOutcome,
    nodeId: string | null,
    at: Date,
  ): Promise<boolean> {
    const row = await uow.clips.transition(id, fromStates(state), state, outcome, nodeId);
    if (!row) return false;
    if (row.state === 'Ready' || row.state === 'Error') {
      const ownerId = await uow.access.ownerOf('stream', row.input_id);
      await uow.events.publish('clip.finished', {
        clip: { id: row.id, ownerId, streamId: row.input_id, callbackUri: row.callback_uri },
        state: row.state,
        at,
        error: row.message,
        present: async () => toClip(row),
      });
    }
    return true;
  }

  private async nodeView(row: ClipRow): Promise<NodeClip> {
    const target = row.storage_id ? await this.deps.storages.nodeTarget(row.storage_id) : null;
    const recording: NodeClip['recording'] =
      row.source_object_key && row.from_seconds !== null && row.to_seconds !== null
        ? {
            objectKey: row.source_object_key,
            storage: row.source_storage_id ? await this.deps.storages.nodeTarget(row.source_storage_id) : null,
            from: row.from_seconds,
            to: row.to_seconds,
          }
        : null;
    return {
      id: row.id,
      streamId: row.input_id,
      state: row.state,
      window: row.from_at && row.to_at ? { from: row.from_at.toISOString(), to: row.to_at.toISOString() } : null,
      recording,
      objectKey: `${keyPrefix(target?.path ?? null)}clips/${row.id}.mp4`,
      storage: target,
    };
  }

  private async owned(auth: AuthContext, id: string): Promise<ClipRow> {
    const row = await this.deps.uow.clips.findById(id);
    if (!row) throw notFound('Clip');
    await this.deps.uow.access.require(auth, 'clip', id);
    return row;
  }
}
