import { randomUUID } from 'node:crypto';
import { type Fallback, type FallbackInput, type FallbackStateReport, SLATE_IMAGE_LIMITS } from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { AuthContext, NodeIdentity } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { decodeImageDataUri, toDataUri } from '../../lib/image-data.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { ReportContext } from '../nodes/node-reports.service.js';
import { StreamsRepository } from '../streams/streams.repository.js';
import type { StreamsService } from '../streams/streams.service.js';
import { type FallbackRow, FallbacksRepository, type FallbackWithInput } from './fallbacks.repository.js';

export interface FallbacksServiceDeps {
  db: Db;
  streams: StreamsService;
  audit: AuditRepository;
  clock: Clock;
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
  private readonly fallbacks: FallbacksRepository;

  constructor(private readonly deps: FallbacksServiceDeps) {
    this.fallbacks = new FallbacksRepository(deps.db);
  }

  async list(auth: AuthContext, streamId: string): Promise<Fallback[]> {
    await this.deps.streams.owned(auth, streamId);
    return (await this.fallbacks.list(streamId)).map(toFallback);
  }

  async create(auth: AuthContext, body: FallbackInput): Promise<Fallback> {
    const input = await this.deps.streams.owned(auth, body.streamId);
    const changes = await this.changesOf(input.owner_id, body);
    const id = randomUUID();
    const now = this.deps.clock.now();
    await this.fallbacks.insert({ id, input_id: input.id, ...changes }, now);
    await this.audit(auth, 'fallback.create', id, { streamId: input.id, type: body.type });
    return this.present(id);
  }

  async update(auth: AuthContext, id: string, body: FallbackInput): Promise<Fallback> {
    const current = await this.owned(auth, id);
    if (body.streamId !== current.input_id) throw badRequest(STREAM_CHANGE_MESSAGE);
    const changes = await this.changesOf(current.owner_id, body);
    await this.fallbacks.update(id, changes, this.deps.clock.now());
    await this.audit(auth, 'fallback.update', id, { streamId: current.input_id, type: body.type });
    return this.present(id);
  }

  async delete(auth: AuthContext, id: string): Promise<void> {
    const current = await this.owned(auth, id);
    if (!(await this.fallbacks.delete(id))) throw notFound('Fallback');
    await this.audit(auth, 'fallback.delete', id, { streamId: current.input_id });
  }

  /** Node-facing: the fallbacks of an input the node serves. */
  async forNode(node: NodeIdentity, inputId: string): Promise<Fallback[]> {
    const input = await new StreamsRepository(this.deps.db).findById(inputId);
    if (!input || input.node_id !== node.id) throw notFound('Stream');
    return (await this.fallbacks.list(inputId)).map(toFallback);
  }

  /** Node-facing: applies fallback-state reports inside the batch's transaction. */
  readonly applyStateReports = async (context: ReportContext, reports: FallbackStateReport[]): Promise<void> => {
    const fallbacks = new FallbacksRepository(context.db);
    for (const report of reports) {
      const row = await fallbacks.find(report.fallbackId);
      // A report about a fallback of an input this node does not serve changes nothing.
      if (!row || row.node_id !== context.node.id) continue;
      await fallbacks.setState(row.id, report.state, report.message, context.receivedAt);
    }
  };

  /** The fallback when the caller may see it: its stream's owner or an ADMIN; anyone else gets 404. */
  private async owned(auth: AuthContext, id: string): Promise<FallbackWithInput> {
    const row = await this.fallbacks.find(id);
    if (!row || (auth.role !== 'ADMIN' && row.owner_id !== auth.accountId)) throw notFound('Fallback');
    return row;
  }

  /** Checks the source by what it is: a slate's bytes, a storage of the stream's owner. */
  private async changesOf(ownerId: string, body: FallbackInput) {
    const resources = await Promise.all(
      body.settings.resources.map(async (resource) => {
        if (resource.type === 'DATA_URI') {
          const { image, bytes } = decodeImageDataUri(resource.data, SLATE_IMAGE_LIMITS);
          return { type: resource.type, data: toDataUri(image.contentType, bytes) };
        }
        if (resource.type === 'STORAGE') {
          const storageId = resource.data.slice(0, resource.data.indexOf('/')).toLowerCase();
          if ((await this.fallbacks.storageOwner(storageId)) !== ownerId) {
            throw badRequest(`Storage ${storageId} not found among the stream owner's storages`);
          }
        }
        return resource;
      }),
    );
    return { type: body.type, label: body.label ?? null, resources };
  }

  private async present(id: string): Promise<Fallback> {
    const row = await this.fallbacks.find(id);
    if (!row) throw notFound('Fallback');
    return toFallback(row);
  }

  private audit(auth: AuthContext, action: string, targetId: string, details: Record<string, unknown>) {
    return this.deps.audit.record(
      { actorId: auth.accountId, actingAdminId: auth.actingAdminId, action, targetType: 'fallback', targetId, details },
      this.deps.clock.now(),
    );
  }
}
