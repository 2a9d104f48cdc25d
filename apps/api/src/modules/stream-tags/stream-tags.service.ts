import { STREAM_TAG_MESSAGES, STREAM_TAGS_MAX, type StreamTags, type TaggedStream } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import type { Clock } from '../../lib/clock.js';
import { conflict, notFound } from '../../lib/errors.js';
import { AuditTrail } from '../audit/audit-trail.js';

type StreamTagsScope = Scope<'streamTags' | 'streamCatalog' | 'access' | 'audit'>;

export interface StreamTagsServiceDeps {
  uow: StreamTagsScope;
  clock: Clock;
}

/**
 * Stream tags (docs/decisions.md, "Adding a resource: stream tags"): who may tag a stream is who may change it
 * (its account or an ADMIN; another account's stream is 404); at most STREAM_TAGS_MAX a stream, each once.
 */
export class StreamTagsService {
  private readonly audit: AuditTrail;

  constructor(private readonly deps: StreamTagsServiceDeps) {
    // Audited on the stream, as its other changes are (`input.tag`, `input.untag`).
    this.audit = new AuditTrail(deps.uow.audit, deps.clock, 'input');
  }

  async list(auth: AuthContext, streamId: string): Promise<StreamTags> {
    await this.deps.uow.access.require(auth, 'stream', streamId);
    return { streamId, tags: await this.deps.uow.streamTags.list(streamId) };
  }

  /** Adds a tag: a tag the stream has is 409, so is one past the limit; of concurrent adds of one tag one wins. */
  async add(auth: AuthContext, streamId: string, tag: string): Promise<StreamTags> {
    const { ownerId } = await this.deps.uow.access.require(auth, 'stream', streamId);
    const tags = await this.deps.uow.transaction(async ({ streamTags }) => {
      const current = await streamTags.lockAndList(streamId);
      if (current === null) throw notFound('Stream');
      if (current.includes(tag)) throw conflict(STREAM_TAG_MESSAGES.duplicate, 'DUPLICATE_TAG');
      if (current.length >= STREAM_TAGS_MAX) throw conflict(STREAM_TAG_MESSAGES.limit, 'TAG_LIMIT');
      // A stream always has an owner (inputs.owner_id is not null).
      const row = { input_id: streamId, owner_id: ownerId as string, tag, created_at: this.deps.clock.now() };
      if (!(await streamTags.insert(row))) throw conflict(STREAM_TAG_MESSAGES.duplicate, 'DUPLICATE_TAG');
      return [...current, tag].sort();
    });
    await this.audit.record(auth, 'input.tag', streamId, { tag });
    return { streamId, tags };
  }

  async remove(auth: AuthContext, streamId: string, tag: string): Promise<void> {
    await this.deps.uow.access.require(auth, 'stream', streamId);
    if (!(await this.deps.uow.streamTags.delete(streamId, tag))) throw notFound('Tag');
    await this.audit.record(auth, 'input.untag', streamId, { tag });
  }

  /** The streams with a tag: the caller's own (an ADMIN: every account's, or the one named). */
  async streamsWith(
    auth: AuthContext,
    tag: string,
    query: { account?: string | undefined; offset: number; limit: number },
  ): Promise<TaggedStream[]> {
    const ownerId = this.deps.uow.access.accountScope(auth, query.account);
    const ids = await this.deps.uow.streamTags.streamsWith(tag, ownerId, query);
    const found = new Map((await this.deps.uow.streamCatalog.describe(ids)).map((stream) => [stream.id, stream]));
    return ids.flatMap((id) => {
      const stream = found.get(id);
      return stream ? [stream] : [];
    });
  }
}
