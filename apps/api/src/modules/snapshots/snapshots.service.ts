import {
  checkImage,
  SNAPSHOT_IMAGE_MAX_BYTES,
  type SnapshotDirection,
  type SnapshotReport,
  type SnapshotSettings,
} from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { asBuffer } from '../../lib/image-data.js';
import { AuditTrail } from '../audit/audit-trail.js';
import { measuredAt, type ReportContext } from '../nodes/index.js';

type SnapshotsScope = Scope<'snapshots' | 'access' | 'audit'>;

export interface SnapshotsServiceDeps {
  uow: SnapshotsScope;
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
  private readonly audit: AuditTrail;

  constructor(private readonly deps: SnapshotsServiceDeps) {
    this.audit = new AuditTrail(deps.uow.audit, deps.clock, 'input');
  }

  async get(auth: AuthContext, streamId: string, direction: SnapshotDirection): Promise<SnapshotSettings | null> {
    await this.deps.uow.access.require(auth, 'stream', streamId);
    return this.deps.uow.snapshots.settings(streamId, direction);
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
    await this.deps.uow.access.require(auth, 'stream', streamId);
    await this.deps.uow.snapshots.saveSettings(streamId, direction, settings, this.deps.clock.now());
    await this.audit.record(auth, 'snapshot.update', streamId, { direction, ...settings });
    return settings;
  }

  async delete(auth: AuthContext, streamId: string, direction: SnapshotDirection): Promise<void> {
    await this.deps.uow.access.require(auth, 'stream', streamId);
    await this.deps.uow.snapshots.deleteSettings(streamId, direction);
    await this.audit.record(auth, 'snapshot.delete', streamId, { direction });
  }

  async image(auth: AuthContext, streamId: string, direction: SnapshotDirection) {
    await this.deps.uow.access.require(auth, 'stream', streamId);
    const image = await this.deps.uow.snapshots.image(streamId, direction);
    if (!image) throw notFound('Snapshot');
    return { contentType: image.content_type, data: asBuffer(image.data) };
  }

  /**
   * When the stream's poster for the public player was taken (its outgoing snapshot, else its incoming one);
   * null while there is none. No caller is checked: the play module decides which outputs may show it.
   */
  async posterTakenAt(streamId: string): Promise<Date | null> {
    return (await this.deps.uow.snapshots.posterOf(streamId))?.takenAt ?? null;
  }

  /** The poster's image (see posterTakenAt); null while there is none. */
  async posterImage(streamId: string) {
    const { snapshots } = this.deps.uow;
    const poster = await snapshots.posterOf(streamId);
    const image = poster && (await snapshots.image(streamId, poster.direction));
    return image ? { contentType: image.content_type, data: asBuffer(image.data) } : null;
  }

  /** Node-facing: both directions' settings of a stream the node serves. */
  async forNode(node: NodeIdentity, streamId: string) {
    const { access, snapshots } = this.deps.uow;
    await access.requireServedBy(node, 'stream', streamId);
    const [incoming, outgoing] = await Promise.all([
      snapshots.settings(streamId, 'incoming'),
      snapshots.settings(streamId, 'outgoing'),
    ]);
    return { incoming, outgoing };
  }

  /**
   * Node-facing: keeps each report's image as the latest of its stream and direction. The bytes must be a
   * PNG or a JPEG (else the whole batch is refused); an image for a stream the node does not serve, or
   * for a direction that takes no snapshots, changes nothing.
   */
  readonly applyReports = async (context: ReportContext<SnapshotsScope>, reports: SnapshotReport[]): Promise<void> => {
    const { access, snapshots } = context.uow;
    for (const report of reports) {
      const bytes = Buffer.from(report.image, 'base64');
      const check = checkImage(bytes, SNAPSHOT_LIMITS);
      if (!check.ok) throw badRequest(`Report ${report.id}: ${check.message}`, 'INVALID_IMAGE');
      if (!(await access.servedBy(context.node, 'stream', report.streamId))) continue;
      if (!(await snapshots.settings(report.streamId, report.direction))) continue;
      await snapshots.saveImage(
        report.streamId,
        report.direction,
        { content_type: check.image.contentType, data: bytes, taken_at: measuredAt(context, report.at) },
        context.receivedAt,
      );
    }
  };
}
