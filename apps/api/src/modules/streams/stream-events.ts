import type { StreamInput, StreamOutput, StreamStateReport, StreamStatus } from '@streamcloud/contract';
import type { UnitOfWork } from '../../db/unit-of-work.js';
import type { OutputRow, SessionRow } from './outputs.repository.js';
import { servingNodeIdOf, toStreamInput, toStreamOutput } from './stream-mapper.js';
import type { StreamRow } from './streams.table.js';

/** A stream as its events name it. */
export interface StreamSubject {
  id: string;
  ownerId: string;
  /** Where its owner wants to hear of it; null: nowhere. */
  callbackUri: string | null;
  /** How it is pushed (the protocol of a push that did not say its own). */
  format: string;
}

/** An output as its events name it. */
export interface OutputSubject {
  id: string;
  /** Where its owner wants to hear of it; null: nowhere. */
  callbackUri: string | null;
}

/** A viewer session of an output. */
export interface ViewerSession {
  id: string;
  address: string | null;
  startedAt: Date;
  bytes: number;
}

/**
 * The events of streams and their outputs, published on the transaction of the change (after it, so what
 * `present()` reads is the resource as it now is). `present()` reads only when a subscriber asks.
 */
export interface StreamEventsMap {
  /** A stream's status went from `from` to `to`. */
  'stream.status-changed': {
    stream: StreamSubject;
    from: StreamStatus;
    to: StreamStatus;
    at: Date;
    /** The message that came with the change (an Error's). */
    message?: string;
    /** Who pushes (a push that starts), as the node told it. */
    push?: StreamStateReport['push'];
    present(): Promise<StreamInput>;
  };
  /** A stream is about to be deleted, with its outputs. */
  'stream.deleting': {
    stream: StreamSubject;
    at: Date;
    present(): Promise<StreamInput>;
    outputs(): Promise<{ output: OutputSubject; present(): Promise<StreamOutput> }[]>;
  };
  /** An output is about to be deleted. */
  'output.deleting': { stream: StreamSubject; output: OutputSubject; at: Date; present(): Promise<StreamOutput> };
  /**
   * An output's viewer sessions went from `before` to `after` (`before` is read only for an output with a
   * callback, the only one anybody is told of; empty otherwise). `present()` shows the output with `after`.
   */
  'output.sessions-changed': {
    stream: StreamSubject;
    output: OutputSubject;
    before: ViewerSession[];
    after: ViewerSession[];
    at: Date;
    present(): Promise<StreamOutput>;
  };
}

declare module '../events.js' {
  interface DomainEvents extends StreamEventsMap {}
}

/** What publishing a stream's events reads with: the change's unit of work. */
export type StreamEventsScope = Pick<UnitOfWork, 'streams' | 'outputs' | 'events'>;

/** What a stream's status change adds to its event. */
export interface StatusChange {
  at: Date;
  /** The message that came with it (stream.error's). */
  message?: string;
  /** Who pushes (stream.ingestion's), as the node told it. */
  push?: StreamStateReport['push'];
}

/**
 * The streams module's side of its events: makes them from its rows and publishes them through the unit of
 * work of the change (the webhooks module subscribes, and turns them into deliveries).
 */
export class StreamEvents {
  /** A stream's status went from `from` to `row.status` (nothing when it did not change). */
  async statusChanged(uow: StreamEventsScope, row: StreamRow, from: StreamStatus, change: StatusChange): Promise<void> {
    if (from === row.status) return;
    await uow.events.publish('stream.status-changed', {
      stream: subject(row),
      from,
      to: row.status,
      at: change.at,
      ...(change.message !== undefined ? { message: change.message } : {}),
      ...(change.push !== undefined ? { push: change.push } : {}),
      present: () => presentStream(uow, row),
    });
  }

  /** Before a stream is deleted (its outputs with it). */
  async deleting(uow: StreamEventsScope, row: StreamRow, at: Date): Promise<void> {
    await uow.events.publish('stream.deleting', {
      stream: subject(row),
      at,
      present: () => presentStream(uow, row),
      outputs: async () =>
        ((await uow.outputs.ofStreams([row.id])).get(row.id) ?? []).map((output) => ({
          output: outputSubject(output),
          present: () => presentOutput(uow, row, output),
        })),
    });
  }

  /** Before an output is deleted. */
  async outputDeleting(uow: StreamEventsScope, input: StreamRow, output: OutputRow, at: Date): Promise<void> {
    await uow.events.publish('output.deleting', {
      stream: subject(input),
      output: outputSubject(output),
      at,
      present: () => presentOutput(uow, input, output),
    });
  }

  /** An output's viewer sessions went from `before` to `after`. */
  async sessionsChanged(
    uow: StreamEventsScope,
    input: StreamRow,
    output: OutputRow,
    before: SessionRow[],
    after: SessionRow[],
    at: Date,
  ): Promise<void> {
    await uow.events.publish('output.sessions-changed', {
      stream: subject(input),
      output: outputSubject(output),
      before: before.map(viewerSession),
      after: after.map(viewerSession),
      at,
      present: async () => toStreamOutput(output, await servingHost(uow, output, input), after),
    });
  }
}

const subject = (row: StreamRow): StreamSubject => ({
  id: row.id,
  ownerId: row.owner_id,
  callbackUri: row.callback_uri,
  format: row.format,
});

const outputSubject = (row: OutputRow): OutputSubject => ({ id: row.id, callbackUri: row.callback_uri });

const viewerSession = (row: SessionRow): ViewerSession => ({
  id: row.session_id,
  address: row.ip_address,
  startedAt: row.started_at,
  bytes: row.bytes,
});

async function presentStream(uow: StreamEventsScope, row: StreamRow): Promise<StreamInput> {
  const found = await uow.streams.findWithDetails(row.id, null);
  return toStreamInput(row, found?.messages ?? [], found?.node ?? null, false, found?.source ?? null);
}

async function presentOutput(uow: StreamEventsScope, input: StreamRow, output: OutputRow): Promise<StreamOutput> {
  const sessions = (await uow.outputs.sessionsOf([output.id])).get(output.id) ?? [];
  return toStreamOutput(output, await servingHost(uow, output, input), sessions);
}

/** The node serving the output's viewers, as its events present it. */
async function servingHost(uow: StreamEventsScope, output: OutputRow, input: StreamRow) {
  const nodeId = servingNodeIdOf(output, input.node_id);
  return nodeId ? uow.streams.nodeHost(nodeId) : null;
}
