import type { StreamStateReport } from '@streamcloud/contract';
import { serves } from '../access/access.js';
import { measuredAt, type ReportContext } from '../nodes/index.js';
import type { StreamEvents } from './stream-events.js';
import { servingNodeIdOf } from './stream-mapper.js';
import type { StreamsScope } from './streams.service.js';
import type { StreamRow } from './streams.table.js';

/**
 * Node-facing: what a node reports of the streams it serves (status, messages, tracks, the HLS ladder, its viewer
 * sessions), written on the report batch's transaction, with the streams' domain events it causes.
 */
export class StreamStateReports {
  constructor(private readonly events: StreamEvents) {}

  /** Applies stream-state reports inside the batch's transaction (the `stream-state` report handler). */
  readonly apply = async (context: ReportContext<StreamsScope>, reports: StreamStateReport[]): Promise<void> => {
    const { streams } = context.uow;
    for (const report of reports) {
      const row = await streams.findById(report.streamId);
      if (!row) continue;
      // A node that does not ingest the stream (moved, or an edge of it) reports only the outputs it serves.
      if (!serves(context.node, row.node_id)) {
        await this.applySessions(context, row, report.outputs ?? []);
        continue;
      }
      if (report.status && report.status !== row.status)
        await streams.update(row.id, { status: report.status }, context.receivedAt);
      // The ladder its edges get: as reported; a push that starts or ends has none until its transcoder says so.
      if (report.renditions !== undefined) await streams.setRenditions(row.id, report.renditions);
      else if (report.status && report.status !== row.status) await streams.setRenditions(row.id, null);
      const at = measuredAt(context, report.at);
      if (report.message)
        await streams.addMessage(row.id, { at, level: report.message.level, text: report.message.text });
      else if (report.status && report.status !== row.status)
        // A status said again without a word (a node whose reports go through again after an outage): the
        // stream's messages still tell why it changed.
        await streams.addMessage(row.id, {
          at,
          level: 'info',
          text: `Node ${context.node.name} reports the stream ${report.status} again`,
        });
      if (report.status && report.status !== row.status) {
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
      for (const source of ['incoming', 'outgoing'] as const) {
        const tracks = report.tracks?.[source];
        if (tracks) await streams.replaceTracks(row.id, source, tracks);
      }
      await this.applySessions(context, row, report.outputs ?? []);
    }
  };

  /** The viewer sessions a node reported for outputs of `row`: only those of the outputs it serves count. */
  private async applySessions(
    context: ReportContext<StreamsScope>,
    row: StreamRow,
    reported: NonNullable<StreamStateReport['outputs']>,
  ): Promise<void> {
    const { outputs } = context.uow;
    for (const output of reported) {
      const target = await outputs.findOfInput(row.id, output.outputId);
      if (!target || servingNodeIdOf(target, row.node_id) !== context.node.id) continue;
      const sessions = output.sessions.map((session) => ({
        session_id: session.id,
        ip_address: session.ipAddress,
        started_at: new Date(session.startedAt),
        bytes: session.bytes,
        token_id: session.tokenId ?? null,
      }));
      // The sessions before are read only when a callback wants to hear of the change.
      const before = target.callback_uri ? ((await outputs.sessionsOf([target.id])).get(target.id) ?? []) : [];
      await outputs.replaceSessions(target.id, sessions);
      if (output.previews !== undefined && output.previews !== target.preview_sessions)
        await outputs.setPreviewSessions(target.id, output.previews);
      await this.events.sessionsChanged(context.uow, row, target, before, sessions, context.receivedAt);
    }
  }
}
