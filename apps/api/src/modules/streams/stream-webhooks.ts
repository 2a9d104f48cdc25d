import type { PushFormat, StreamInput, StreamStateReport, StreamStatus } from '@streamcloud/contract';
import type { Db } from '../../db/database.js';
import type { WebhookEventSpec, WebhookOutbox } from '../webhooks/index.js';
import { WebhooksRepository } from '../webhooks/webhooks.repository.js';
import { type OutputRow, OutputsRepository, type SessionRow } from './outputs.repository.js';
import { servingNodeIdOf, toStreamInput, toStreamOutput } from './stream-mapper.js';
import { type StreamRow, StreamsRepository } from './streams.repository.js';

/** A push's usage sessions may start a little before the Ingestion report that announced it. */
const PUSH_START_SLACK_MS = 5_000;

/** What a status change adds to its event. */
export interface StatusChange {
  at: Date;
  /** The message that came with it (stream.error's). */
  message?: string;
  /** Who pushes (stream.ingestion's), as the node told it. */
  push?: StreamStateReport['push'];
}

type Spec = WebhookEventSpec;

/**
 * The webhook events of streams and their outputs. Each method runs on the transaction `db` of the change
 * (after the change, so the resource is presented as it now is) and writes nothing for a resource without
 * a callbackUri.
 */
export class StreamWebhooks {
  constructor(private readonly outbox: WebhookOutbox) {}

  /**
   * A stream's status went from `from` to `row.status`: stream.ingestion when a push starts, stream.idle
   * when it ends, stream.error, and stream.fallback when the fallback starts or ends.
   */
  async statusChanged(db: Db, row: StreamRow, from: StreamStatus, change: StatusChange): Promise<void> {
    const to = row.status;
    if (!row.callback_uri || from === to) return;
    const stream = await this.present(db, row);
    const events: Spec[] = [];
    const event = (type: Spec['type'], data: Spec['data']) => events.push(this.streamSpec(row, type, change.at, data));
    if (from === 'Fallback') event('stream.fallback', { ...stream, fallback: { state: 'ended' } });
    if (to === 'Ingestion') {
      const protocol = change.push?.protocol ?? (row.format as PushFormat);
      const address = change.push?.remoteAddress ?? addressInMessage(change.message);
      await WebhooksRepository.rememberPush(db, { input_id: row.id, protocol, address, started_at: change.at });
      event('stream.ingestion', { ...stream, push: { protocol, address } });
    } else if (to === 'Idle' && (from === 'Ingestion' || from === 'Fallback')) {
      event('stream.idle', { ...stream, push: await this.endedPush(db, row, change.at) });
    } else if (to === 'Error') {
      event('stream.error', { ...stream, error: { message: change.message ?? 'The stream went into Error' } });
    } else if (to === 'Fallback') {
      event('stream.fallback', { ...stream, fallback: { state: 'started' } });
    }
    await this.outbox.emit(db, ...events);
  }

  /** Before a stream is deleted: stream.deleted, and output.deleted for each of its outputs. */
  async deleting(db: Db, row: StreamRow, at: Date): Promise<void> {
    const outputs = (await new OutputsRepository(db).ofStreams([row.id])).get(row.id) ?? [];
    const events: Spec[] = [];
    if (row.callback_uri) events.push(this.streamSpec(row, 'stream.deleted', at, await this.present(db, row)));
    for (const output of outputs)
      if (output.callback_uri) events.push(await this.outputDeletedSpec(db, row, output, at));
    await this.outbox.emit(db, ...events);
  }

  /** Before an output is deleted: output.deleted. */
  async outputDeleting(db: Db, input: StreamRow, output: OutputRow, at: Date): Promise<void> {
    if (!output.callback_uri) return;
    await this.outbox.emit(db, await this.outputDeletedSpec(db, input, output, at));
  }

  /** An output's viewer sessions went from `before` to `after`: output.session.started and .ended. */
  async sessionsChanged(
    db: Db,
    input: StreamRow,
    output: OutputRow,
    before: SessionRow[],
    after: SessionRow[],
    at: Date,
  ): Promise<void> {
    if (!output.callback_uri) return;
    const now = new Set(after.map((session) => session.session_id));
    const earlier = new Set(before.map((session) => session.session_id));
    const started = after.filter((session) => !earlier.has(session.session_id));
    const ended = before.filter((session) => !now.has(session.session_id));
    if (started.length === 0 && ended.length === 0) return;
    const presented = toStreamOutput(output, await servingHost(db, output, input), after);
    const spec = (type: 'output.session.started' | 'output.session.ended', session: SessionRow): Spec => ({
      ...this.outputBase(input, output, type, at),
      data: {
        ...presented,
        session: {
          id: session.session_id,
          address: session.ip_address,
          startedAt: session.started_at.toISOString(),
          endedAt: type === 'output.session.ended' ? at.toISOString() : null,
          bytes: session.bytes,
        },
      },
    });
    await this.outbox.emit(
      db,
      ...ended.map((session) => spec('output.session.ended', session)),
      ...started.map((session) => spec('output.session.started', session)),
    );
  }

  /** The push that ended: when it started (as stream.ingestion told) and what its sessions pushed. */
  private async endedPush(db: Db, row: StreamRow, endedAt: Date) {
    const started = await WebhooksRepository.takePush(db, row.id);
    const usage = started
      ? await WebhooksRepository.pushedSince(db, row.id, new Date(started.started_at.getTime() - PUSH_START_SLACK_MS))
      : { duration: 0, bytes: 0 };
    return {
      protocol: (started?.protocol ?? row.format) as PushFormat,
      startedAt: started?.started_at.toISOString() ?? null,
      endedAt: endedAt.toISOString(),
      ...usage,
    };
  }

  private async outputDeletedSpec(db: Db, input: StreamRow, output: OutputRow, at: Date): Promise<Spec> {
    const repository = new OutputsRepository(db);
    const sessions = (await repository.sessionsOf([output.id])).get(output.id) ?? [];
    const node = await servingHost(db, output, input);
    return { ...this.outputBase(input, output, 'output.deleted', at), data: toStreamOutput(output, node, sessions) };
  }

  private outputBase(input: StreamRow, output: OutputRow, type: Spec['type'], at: Date) {
    return {
      type,
      accountId: input.owner_id,
      resourceType: 'output' as const,
      resourceId: output.id,
      streamId: input.id,
      url: output.callback_uri,
      occurredAt: at,
    };
  }

  private streamSpec(row: StreamRow, type: Spec['type'], at: Date, data: Spec['data']): Spec {
    return {
      type,
      accountId: row.owner_id,
      resourceType: 'stream',
      resourceId: row.id,
      streamId: row.id,
      url: row.callback_uri,
      occurredAt: at,
      data,
    };
  }

  private async present(db: Db, row: StreamRow): Promise<StreamInput> {
    const found = await new StreamsRepository(db).findWithDetails(row.id, null);
    return toStreamInput(row, found?.messages ?? [], found?.node ?? null, false, found?.source ?? null);
  }
}

/**
 * The publisher's address in the node's "Push started over RTMP from 203.0.113.7" message, for nodes that
 * do not send `push` with the report yet.
 */
function addressInMessage(message: string | undefined): string | null {
  return message ? (/^Push (?:started|resumed) over \S+ from (\S+)$/.exec(message)?.[1] ?? null) : null;
}

/** The node serving the output's viewers, as its webhooks present it. */
async function servingHost(db: Db, output: OutputRow, input: StreamRow) {
  const nodeId = servingNodeIdOf(output, input.node_id);
  return nodeId ? new StreamsRepository(db).nodeHost(nodeId) : null;
}
