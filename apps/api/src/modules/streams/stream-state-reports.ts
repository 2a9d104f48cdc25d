import type { StreamStateReport } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import { serves } from '../access/access.js';
import { measuredAt, type ReportContext } from '../nodes/index.js';
import type { OutputRow, SessionRow } from './outputs.repository.js';
import type { StreamEvents } from './stream-events.js';
import { servingNodeIdOf } from './stream-mapper.js';
import type { StateChange, TracksOf } from './stream-states.repository.js';
import type { StreamsScope } from './streams.service.js';
import type { StatusMessageRow, StreamRow } from './streams.table.js';

/** What the stream-state reports write through: the streams module's scope and its batch writes. */
export type StreamStatesScope = StreamsScope & Scope<'streamStates'>;

/** A report to apply on its stream's row as read at the start of its round. */
interface Applied {
  report: StreamStateReport;
  row: StreamRow;
}

/**
 * Node-facing: what a node reports of the streams it serves (status, messages, tracks, the HLS ladder, its viewer
 * sessions), written on the report batch's transaction, with the streams' domain events it causes.
 *
 * A batch is applied in rounds, each with at most one report per stream, in the order they came: a round's
 * streams are read in one statement and its writes made per kind for all of them (StreamStatesRepository), then
 * its status changes and viewer sessions are published, report by report. A wave of 200 pushes
 * starting is a few statements, not five per stream; a stream reported twice in a batch (a push that started and
 * ended within one) has its second report in the next round, which reads the first one's outcome.
 */
export class StreamStateReports {
  constructor(private readonly events: StreamEvents) {}

  /** Applies stream-state reports inside the batch's transaction (the `stream-state` report handler). */
  readonly apply = async (context: ReportContext<StreamStatesScope>, reports: StreamStateReport[]): Promise<void> => {
    let round: StreamStateReport[] = [];
    const streams = new Set<string>();
    for (const report of reports) {
      if (streams.has(report.streamId)) {
        await this.applyRound(context, round);
        round = [];
        streams.clear();
      }
      round.push(report);
      streams.add(report.streamId);
    }
    await this.applyRound(context, round);
  };

  private async applyRound(context: ReportContext<StreamStatesScope>, reports: StreamStateReport[]): Promise<void> {
    if (reports.length === 0) return;
    const { streamStates } = context.uow;
    const rows = await streamStates.findByIds(reports.map((report) => report.streamId));
    const applied: Applied[] = [];
    for (const report of reports) {
      const row = rows.get(report.streamId);
      if (row) applied.push({ report, row });
    }
    // A node that does not ingest the stream (moved, or an edge of it) reports only the outputs it serves.
    const served = applied.filter(({ row }) => serves(context.node, row.node_id));
    const changes = new Map<string, StateChange>();
    const messages: Array<StatusMessageRow & { input_id: string }> = [];
    const tracks: TracksOf[] = [];
    for (const { report, row } of served) {
      const changed = report.status !== undefined && report.status !== row.status;
      const change: StateChange = changed ? { status: report.status } : {};
      // The ladder its edges get: as reported; a push that starts or ends has none until its transcoder says so.
      if (report.renditions !== undefined) change.renditions = report.renditions;
      else if (changed) change.renditions = null;
      if (change.status !== undefined || change.renditions !== undefined) changes.set(row.id, change);
      const at = measuredAt(context, report.at);
      if (report.message)
        messages.push({ input_id: row.id, at, level: report.message.level, text: report.message.text });
      else if (changed)
        // A status said again without a word (a node whose reports go through again after an outage): the
        // stream's messages still tell why it changed.
        messages.push({
          input_id: row.id,
          at,
          level: 'info',
          text: `Node ${context.node.name} reports the stream ${report.status} again`,
        });
      for (const source of ['incoming', 'outgoing'] as const) {
        const list = report.tracks?.[source];
        if (list) tracks.push({ streamId: row.id, source, tracks: list });
      }
    }
    await streamStates.setStates(changes, context.receivedAt);
    await streamStates.addMessages(messages);
    await streamStates.replaceTracks(tracks);
    for (const { report, row } of served) {
      if (report.status === undefined || report.status === row.status) continue;
      const at = measuredAt(context, report.at);
      await this.events.statusChanged(
        context.uow,
        { ...row, status: report.status, updated_at: context.receivedAt },
        row.status,
        {
          at,
          ...(report.message ? { message: report.message.text } : {}),
          ...(report.push ? { push: report.push } : {}),
        },
      );
    }
    await this.applySessions(context, applied);
  }

  /**
   * The viewer sessions a node reported for outputs of the round's streams: only those of the outputs it serves
   * count. Read and written for the whole round; the changes are published output by output.
   */
  private async applySessions(context: ReportContext<StreamStatesScope>, applied: Applied[]): Promise<void> {
    const { outputs, streamStates } = context.uow;
    const reported = applied.flatMap(({ report, row }) => (report.outputs ?? []).map((output) => ({ row, output })));
    if (reported.length === 0) return;
    const targets = await streamStates.outputsByIds(reported.map(({ output }) => output.outputId));
    const changed = new Map<string, { row: StreamRow; target: OutputRow; sessions: SessionRow[] }>();
    for (const { row, output } of reported) {
      const target = targets.get(output.outputId);
      if (!target || target.input_id !== row.id || servingNodeIdOf(target, row.node_id) !== context.node.id) continue;
      const sessions = output.sessions.map((session) => ({
        session_id: session.id,
        ip_address: session.ipAddress,
        started_at: new Date(session.startedAt),
        bytes: session.bytes,
        token_id: session.tokenId ?? null,
      }));
      changed.set(target.id, { row, target, sessions });
      if (output.previews !== undefined && output.previews !== target.preview_sessions)
        await outputs.setPreviewSessions(target.id, output.previews);
    }
    // The sessions before are read only for the outputs whose callback wants to hear of the change.
    const before = await outputs.sessionsOf(
      [...changed.values()].filter(({ target }) => target.callback_uri).map(({ target }) => target.id),
    );
    await streamStates.replaceSessions(new Map([...changed].map(([id, { sessions }]) => [id, sessions])));
    for (const { row, target, sessions } of changed.values())
      await this.events.sessionsChanged(
        context.uow,
        row,
        target,
        before.get(target.id) ?? [],
        sessions,
        context.receivedAt,
      );
  }
}
