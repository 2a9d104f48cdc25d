import {
  OVERLAY_IMAGE_LIMITS,
  outputModeOfName,
  type TranscodeConfig,
  type TranscodeConfigUpdate,
} from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import { decodeImageDataUri, toDataUri } from '../../lib/image-data.js';
import type { OverlayRow, StoredTranscodeConfig, TranscodedStream } from './transcode.repository.js';

export interface TranscodeServiceDeps {
  uow: Scope<'transcode' | 'access' | 'audit'>;
  clock: Clock;
}

export const NOT_ADJUSTABLE_MESSAGE = 'Only adjustable-transcode streams have a transcoding ladder';
export const IN_INGESTION_MESSAGE = 'The transcoding cannot be changed while the stream is in Ingestion';

/** The configuration as stored (possibly older, or legacy) in its full version-2 shape. */
export function toTranscodeConfig(stored: StoredTranscodeConfig, overlay: OverlayRow | null): TranscodeConfig {
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

/** The transcode configuration of adjustable-transcode streams: ladder, overlay, ad markers, time encoder. */
export class TranscodeService {
  constructor(private readonly deps: TranscodeServiceDeps) {}

  async get(auth: AuthContext, id: string): Promise<TranscodeConfig> {
    await this.deps.uow.access.require(auth, 'stream', id);
    return this.read(id);
  }

  /** The editor's own rule: only adjustable-transcode streams, and not while in Ingestion (409). */
  async update(auth: AuthContext, id: string, body: TranscodeConfigUpdate): Promise<TranscodeConfig> {
    const { uow, clock } = this.deps;
    await uow.access.require(auth, 'stream', id);
    const stream = await this.stream(id);
    if (outputModeOfName(stream.name) !== 'AdjustableTranscode')
      throw conflict(NOT_ADJUSTABLE_MESSAGE, 'NOT_ADJUSTABLE');
    if (stream.status === 'Ingestion') throw conflict(IN_INGESTION_MESSAGE, 'INVALID_STATE');
    const image = body.overlay ? decodeImageDataUri(body.overlay.data, OVERLAY_IMAGE_LIMITS) : null;
    const overlay: OverlayRow | null = image ? { content_type: image.image.contentType, data: image.bytes } : null;
    const stored: StoredTranscodeConfig = {
      version: 2,
      passthrough: body.passthrough,
      scte35: body.scte35,
      epochTimeEncoder: body.epochTimeEncoder,
      overlay: body.overlay ? { offsetX: body.overlay.offsetX, offsetY: body.overlay.offsetY } : null,
      tracks: body.tracks,
    };
    const now = clock.now();
    await uow.transaction(async ({ transcode }) => {
      await transcode.saveConfig(id, stored, now);
      if (overlay) await transcode.saveOverlay(id, overlay, now);
      else await transcode.deleteOverlay(id);
    });
    await uow.audit.recordBy(
      auth,
      {
        action: 'input.output.update',
        targetType: 'input',
        targetId: id,
        details: { tracks: body.tracks.length, overlay: overlay !== null, scte35: body.scte35.mode },
      },
      now,
    );
    return toTranscodeConfig(stored, overlay);
  }

  /** Node-facing: the configuration of a stream the node serves. */
  async forNode(node: NodeIdentity, id: string): Promise<TranscodeConfig> {
    await this.deps.uow.access.requireServedBy(node, 'stream', id);
    return this.read(id);
  }

  private async read(id: string): Promise<TranscodeConfig> {
    const [stream, overlay] = await Promise.all([this.stream(id), this.deps.uow.transcode.overlay(id)]);
    return toTranscodeConfig(stream.config, overlay);
  }

  private async stream(id: string): Promise<TranscodedStream> {
    const stream = await this.deps.uow.transcode.stream(id);
    if (!stream) throw notFound('Stream');
    return stream;
  }
}
