import {
  checkImage,
  SNAPSHOT_IMAGE_MAX_BYTES,
  type SnapshotDirection,
  type SnapshotReport,
  type SnapshotSettings,
} from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { asBuffer } from '../../lib/image-data.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { ReportContext } from '../nodes/node-reports.service.js';
import { StreamsRepository } from '../streams/streams.repository.js';
import type { StreamsService } from '../streams/streams.service.js';
import { SnapshotsRepository } from './snapshots.repository.js';

export interface SnapshotsServiceDeps {
  db: Db;
  streams: StreamsService;
  audit: AuditRepository;
  clock: Clock;
}

/** Snapshot images of any size a node sends (their dimensions are the stream's). */
const SNAPSHOT_LIMITS = {
  maxBytes: SNAPSHOT_IMAGE_MAX_BYTES,
  maxWidth: Number.POSITIVE_INFINITY,
  maxHeight: Number.POSITIVE_INFINITY,
  messages: {
    size: 'The snapshot image must be at most 5 MB',
    type: 'The snapshot image must be a PNG or a JPEG',
    dimensions: '',
  },
};

/** Snapshot settings per stream and direction, and the latest image nodes sent for each. */
export class SnapshotsService {
  private readonly snapshots: SnapshotsRepository;

  constructor(private readonly deps: SnapshotsServiceDeps) {
    this.snapshots = new SnapshotsRepository(deps.db);
  }

  async get(auth: AuthContext, streamId: string, direction: SnapshotDirection): Promise<SnapshotSettings | null> {
    await this.deps.streams.owned(auth, streamId);
    return this.snapshots.settings(streamId, direction);
  }

  /** Settings turn the direction on; null turns it off (as DELETE does). */
  async update(
    auth: AuthContext,
    streamId: string,
    direction: SnapshotDirection,
    settings: SnapshotSettings | null,
  ): Promise<SnapshotSettings | null> {
    if (settings === null) {
      await this.delete(auth, streamId, direction);
      return null;
    }
    await this.deps.streams.owned(auth, streamId);
    await this.snapshots.saveSettings(streamId, direction, settings, this.deps.clock.now());
    await this.audit(auth, 'snapshot.update', streamId, { direction, ...settings });
    return settings;
  }

  async delete(auth: AuthContext, streamId: string, direction: SnapshotDirection): Promise<void> {
    await this.deps.streams.owned(auth, streamId);
    await this.snapshots.deleteSettings(streamId, direction);
    await this.audit(auth, 'snapshot.delete', streamId, { direction });
  }

  async image(auth: AuthContext, streamId: string, direction: SnapshotDirection) {
    await this.deps.streams.owned(auth, streamId);
    const image = await this.snapshots.image(streamId, direction);
    if (!image) throw notFound('Snapshot');
    return { contentType: image.content_type, data: asBuffer(image.data) };
  }

  /** Node-facing: both directions' settings of an input the node serves. */
  async forNode(node: NodeIdentity, inputId: string) {
    const input = await new StreamsRepository(this.deps.db).findById(inputId);
    if (!input || input.node_id !== node.id) throw notFound('Stream');
    const [incoming, outgoing] = await Promise.all([
      this.snapshots.settings(inputId, 'incoming'),
      this.snapshots.settings(inputId, 'outgoing'),
    ]);
    return { incoming, outgoing };
  }

  /**
   * Node-facing: keeps each report's image as the latest of its stream and direction. The bytes must be a
   * PNG or a JPEG (else the whole batch is refused); an image for an input the node does not serve, or
   * for a direction that takes no snapshots, changes nothing.
   */
  readonly applyReports = async (context: ReportContext, reports: SnapshotReport[]): Promise<void> => {
    const inputs = new StreamsRepository(context.db);
    const snapshots = new SnapshotsRepository(context.db);
    for (const report of reports) {
      const bytes = Buffer.from(report.image, 'base64');
      const check = checkImage(bytes, SNAPSHOT_LIMITS);
      if (!check.ok) throw badRequest(`Report ${report.id}: ${check.message}`, 'INVALID_IMAGE');
      const input = await inputs.findById(report.streamId);
      if (!input || input.node_id !== context.node.id) continue;
      if (!(await snapshots.settings(input.id, report.direction))) continue;
      const measured = report.at ? new Date(report.at) : context.receivedAt;
      const takenAt = measured.getTime() > context.receivedAt.getTime() ? context.receivedAt : measured;
      await snapshots.saveImage(
        input.id,
        report.direction,
        { content_type: check.image.contentType, data: bytes, taken_at: takenAt },
        context.receivedAt,
      );
    }
  };

  private audit(auth: AuthContext, action: string, targetId: string, details: Record<string, unknown>) {
    return this.deps.audit.record(
      { actorId: auth.accountId, actingAdminId: auth.actingAdminId, action, targetType: 'input', targetId, details },
      this.deps.clock.now(),
    );
  }
}
