import {
  OVERLAY_IMAGE_LIMITS,
  outputModeOfName,
  type TranscodeConfig,
  type TranscodeConfigUpdate,
} from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import { decodeImageDataUri, toDataUri } from '../../lib/image-data.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import { StreamsRepository } from '../streams/streams.repository.js';
import type { StreamsService } from '../streams/streams.service.js';
import { type OverlayRow, type StoredOutput, TranscodeRepository } from './transcode.repository.js';

export interface TranscodeServiceDeps {
  db: Db;
  streams: StreamsService;
  audit: AuditRepository;
  clock: Clock;
}

export const NOT_ADJUSTABLE_MESSAGE = 'Only adjustable-transcode streams have a transcoding ladder';
export const IN_INGESTION_MESSAGE = 'The transcoding cannot be changed while the stream is in Ingestion';

/** The configuration as stored (possibly older, or legacy) in its full version-2 shape. */
export function presentOutput(stored: StoredOutput, overlay: OverlayRow | null): TranscodeConfig {
  return {
    version: 2,
    passthrough: stored.passthrough ?? false,
    scte35: { mode: stored.scte35?.mode ?? (stored.adMarker ? 'Passthrough' : 'None') },
    epochTimeEncoder: { enabled: stored.epochTimeEncoder?.enabled ?? false },
    overlay:
      stored.overlay && overlay
        ? {
            data: toDataUri(overlay.content_type, overlay.data),
            offsetX: stored.overlay.offsetX,
            offsetY: stored.overlay.offsetY,
          }
        : null,
    tracks: stored.tracks ?? [],
  };
}

/** The transcode configuration of adjustable-transcode inputs: ladder, overlay, ad markers, time encoder. */
export class TranscodeService {
  private readonly repository: TranscodeRepository;

  constructor(private readonly deps: TranscodeServiceDeps) {
    this.repository = new TranscodeRepository(deps.db);
  }

  async get(auth: AuthContext, id: string): Promise<TranscodeConfig> {
    const row = await this.deps.streams.owned(auth, id);
    return presentOutput(row.output as StoredOutput, await this.repository.overlay(id));
  }

  /** The editor's own rule: only adjustable-transcode streams, and not while in Ingestion (409). */
  async update(auth: AuthContext, id: string, body: TranscodeConfigUpdate): Promise<TranscodeConfig> {
    const row = await this.deps.streams.owned(auth, id);
    if (outputModeOfName(row.name) !== 'AdjustableTranscode') throw conflict(NOT_ADJUSTABLE_MESSAGE, 'NOT_ADJUSTABLE');
    if (row.status === 'Ingestion') throw conflict(IN_INGESTION_MESSAGE, 'INVALID_STATE');
    const image = body.overlay ? decodeImageDataUri(body.overlay.data, OVERLAY_IMAGE_LIMITS) : null;
    const overlay: OverlayRow | null = image ? { content_type: image.image.contentType, data: image.bytes } : null;
    const stored: StoredOutput = {
      version: 2,
      passthrough: body.passthrough,
      scte35: body.scte35,
      epochTimeEncoder: body.epochTimeEncoder,
      overlay: body.overlay ? { offsetX: body.overlay.offsetX, offsetY: body.overlay.offsetY } : null,
      tracks: body.tracks,
    };
    const now = this.deps.clock.now();
    await this.repository.transaction(async (repository) => {
      await repository.saveOutput(id, stored, now);
      if (overlay) await repository.saveOverlay(id, overlay, now);
      else await repository.deleteOverlay(id);
    });
    await this.deps.audit.record(
      {
        actorId: auth.accountId,
        actingAdminId: auth.actingAdminId,
        action: 'input.output.update',
        targetType: 'input',
        targetId: id,
        details: { tracks: body.tracks.length, overlay: overlay !== null, scte35: body.scte35.mode },
      },
      now,
    );
    return presentOutput(stored, overlay);
  }

  /** Node-facing: the configuration of an input the node serves. */
  async forNode(node: NodeIdentity, id: string): Promise<TranscodeConfig> {
    const row = await new StreamsRepository(this.deps.db).findById(id);
    if (!row || row.node_id !== node.id) throw notFound('Stream');
    return presentOutput(row.output as StoredOutput, await this.repository.overlay(id));
  }
}
