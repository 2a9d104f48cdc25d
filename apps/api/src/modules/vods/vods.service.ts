import type { Vod, VodReport } from '@streamcloud/contract';
import type { Scope } from '../../db/unit-of-work.js';
import type { AuthContext } from '../../lib/auth-context.js';
import { notFound } from '../../lib/errors.js';
import { measuredAt, type ReportContext } from '../nodes/index.js';
import { httpBase } from '../streams/connections.js';
import type { VodRecordingRow, VodView } from './vods.repository.js';

type VodsScope = Scope<'vods' | 'access'>;

/** The path of an output's VOD on the node (the node's vod/serve.ts answers it). */
const vodPath = (outputName: string) => `/hls/${encodeURIComponent(outputName)}/vod/index.m3u8`;

export function toVod(row: VodView, recordings: VodRecordingRow[]): Vod {
  // A VOD whose node was removed is gone with it.
  const state = row.node_id === null ? 'Evicted' : row.state;
  const { node_protocol: protocol, node_hostname: hostname, node_port: port, output_name } = row;
  const playable = state === 'Available' && protocol && hostname && port && output_name;
  return {
    id: row.id,
    streamId: row.input_id,
    state,
    startedAt: row.started_at.toISOString(),
    endedAt: row.ended_at.toISOString(),
    duration: row.duration,
    size: row.size,
    playlistUri: playable ? `${httpBase({ protocol, hostname, port })}${vodPath(output_name)}` : null,
    outputId: playable ? row.output_id : null,
    recordings: recordings
      .filter((recording) => recording.created_at <= row.ended_at && recording.updated_at >= row.started_at)
      .map((recording) => ({ id: recording.id, fileName: recording.file_name, fileFormat: recording.file_format })),
    createdAt: row.created_at.toISOString(),
  };
}

/**
 * VODs of ended sessions (docs/decisions.md, "VOD of an ended stream"): the nodes' `vod` reports (a VOD kept, or
 * evicted), and their reads by the stream's owner and ADMIN. The media stays on the node; what a VOD's URL plays
 * through is the stream's Low latency output with a rewind window, as it is at the time of the read.
 */
export class VodsService {
  constructor(private readonly deps: { uow: VodsScope }) {}

  async list(auth: AuthContext, streamId: string): Promise<Vod[]> {
    await this.deps.uow.access.require(auth, 'stream', streamId);
    return this.present(streamId, await this.deps.uow.vods.ofStream(streamId));
  }

  async get(auth: AuthContext, id: string): Promise<Vod> {
    await this.deps.uow.access.require(auth, 'vod', id);
    const row = await this.deps.uow.vods.findById(id);
    if (!row) throw notFound('VOD');
    const [vod] = await this.present(row.input_id, [row]);
    if (!vod) throw notFound('VOD');
    return vod;
  }

  /** The rows as the API answers them, each with the stream's recordings of its time (one read for them all). */
  private async present(streamId: string, rows: VodView[]): Promise<Vod[]> {
    if (rows.length === 0) return [];
    const from = new Date(Math.min(...rows.map((row) => row.started_at.getTime())));
    const to = new Date(Math.max(...rows.map((row) => row.ended_at.getTime())));
    const recordings = await this.deps.uow.vods.completedRecordings(streamId, from, to);
    return rows.map((row) => toVod(row, recordings));
  }

  /**
   * The `vod` reports of a batch: an Available one is filed for a stream the node serves (a VOD of a stream it no
   * longer holds is nobody's); an Evicted one changes only that node's VOD.
   */
  readonly applyReports = async (context: ReportContext, reports: VodReport[]): Promise<void> => {
    const { uow, node } = context;
    for (const report of reports) {
      if (report.state === 'Evicted') {
        await uow.vods.evict(report.vodId, node.id, measuredAt(context, report.at));
        continue;
      }
      if (!(await uow.access.servedBy(node, 'stream', report.streamId))) continue;
      await uow.vods.upsertAvailable({
        id: report.vodId,
        input_id: report.streamId,
        node_id: node.id,
        state: 'Available',
        started_at: new Date(report.startedAt),
        ended_at: new Date(report.endedAt),
        duration: report.duration,
        size: report.size,
      });
    }
  };
}
