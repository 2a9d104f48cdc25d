import { randomUUID } from 'node:crypto';
import {
  type Fallback,
  type FallbackInput,
  type FallbackStateReport,
  type NodeFallback,
  SLATE_IMAGE_LIMITS,
} from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { decodeImageDataUri, toDataUri } from '../../lib/image-data.js';
import { AuditTrail } from '../audit/audit-trail.js';
import type { ReportContext } from '../nodes/index.js';
import type { StoragesService } from '../storages/index.js';
import type { FallbackRow } from './fallbacks.repository.js';

type FallbacksScope = Scope<'fallbacks' | 'access' | 'audit'>;

export interface FallbacksServiceDeps {
  uow: FallbacksScope;
  clock: Clock;
  storages: Pick<StoragesService, 'nodeTarget'>;
}

export const STREAM_CHANGE_MESSAGE = 'streamId cannot be changed: a fallback stays with its stream';

export function toFallback(row: FallbackRow): Fallback {
  return {
    id: row.id,
    streamId: row.input_id,
    type: row.type,
    label: row.label,
    state: row.state,
    message: row.message,
    settings: { resources: row.resources },
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** A stream's fallbacks: the owner's list and changes, and the states nodes report. */
export class FallbacksService {
  private readonly audit: AuditTrail;

  constructor(private readonly deps: FallbacksServiceDeps) {
    this.audit = new AuditTrail(deps.uow.audit, deps.clock, 'fallback');
  }

  async list(auth: AuthContext, streamId: string): Promise<Fallback[]> {
    await this.deps.uow.access.require(auth, 'stream', streamId);
    return (await this.deps.uow.fallbacks.list(streamId)).map(toFallback);
  }

  async create(auth: AuthContext, body: FallbackInput): Promise<Fallback> {
    const { ownerId } = await this.deps.uow.access.require(auth, 'stream', body.streamId);
    const changes = await this.changesOf(ownerId, body);
    const id = randomUUID();
    const now = this.deps.clock.now();
    await this.deps.uow.fallbacks.insert({ id, input_id: body.streamId, ...changes }, now);
    await this.audit.record(auth, 'fallback.create', id, { streamId: body.streamId, type: body.type });
    return this.present(id);
  }

  async update(auth: AuthContext, id: string, body: FallbackInput): Promise<Fallback> {
    const { streamId, ownerId } = await this.deps.uow.access.require(auth, 'fallback', id);
    if (body.streamId !== streamId) throw badRequest(STREAM_CHANGE_MESSAGE);
    const changes = await this.changesOf(ownerId, body);
    await this.deps.uow.fallbacks.update(id, changes, this.deps.clock.now());
    await this.audit.record(auth, 'fallback.update', id, { streamId, type: body.type });
    return this.present(id);
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const { streamId } = await this.deps.uow.access.require(auth, 'fallback', id);
    if (!(await this.deps.uow.fallbacks.delete(id))) throw notFound('Fallback');
    await this.audit.record(auth, 'fallback.delete', id, { streamId });
  }

  /**
   * Node-facing: the fallbacks of a stream the node serves; a storage object's come with the storage's
   * credentials while it is still the stream owner's.
   */
  async forNode(node: NodeIdentity, streamId: string): Promise<NodeFallback[]> {
    const { ownerId } = await this.deps.uow.access.requireServedBy(node, 'stream', streamId);
    return Promise.all(
      (await this.deps.uow.fallbacks.list(streamId)).map(async (row) => {
        const storageId = storageIdOf(row.resources[0]);
        const owned = storageId !== null && (await this.deps.uow.access.ownerOf('storage', storageId)) === ownerId;
        return { ...toFallback(row), storage: owned ? await this.deps.storages.nodeTarget(storageId) : null };
      }),
    );
  }

  /** Node-facing: applies fallback-state reports inside the batch's transaction. */
  readonly applyStateReports = async (
    context: ReportContext<FallbacksScope>,
    reports: FallbackStateReport[],
  ): Promise<void> => {
    const { fallbacks, access } = context.uow;
    for (const report of reports) {
      // A report about a fallback of a stream this node does not serve changes nothing.
      if (!(await access.servedBy(context.node, 'fallback', report.fallbackId))) continue;
      await fallbacks.setState(report.fallbackId, report.state, report.message, context.receivedAt);
    }
  };

  /** Checks the source by what it is: a slate's bytes, a storage of the stream's owner. */
  private async changesOf(ownerId: string | null, body: FallbackInput) {
    const resources = await Promise.all(
      body.settings.resources.map(async (resource) => {
        if (resource.type === 'DATA_URI') {
          const { image, bytes } = decodeImageDataUri(resource.data, SLATE_IMAGE_LIMITS);
          return { type: resource.type, data: toDataUri(image.contentType, bytes) };
        }
        const storageId = storageIdOf(resource);
        if (storageId !== null) {
          if ((await this.deps.uow.access.ownerOf('storage', storageId)) !== ownerId) {
            throw badRequest(`Storage ${storageId} not found among the stream owner's storages`);
          }
        }
        return resource;
      }),
    );
    return { type: body.type, label: body.label ?? null, resources };
  }

  private async present(id: string): Promise<Fallback> {
    const row = await this.deps.uow.fallbacks.findById(id);
    if (!row) throw notFound('Fallback');
    return toFallback(row);
  }
}

/** The storage a STORAGE source (`<storage id>/<object key>`) is in. */
function storageIdOf(resource: { type: string; data: string } | undefined): string | null {
  if (resource?.type !== 'STORAGE') return null;
  return resource.data.slice(0, resource.data.indexOf('/')).toLowerCase();
}
