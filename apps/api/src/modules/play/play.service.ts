import { type PlayInfo, playRoutes } from '@streamcloud/contract';
import { notFound } from '../../lib/errors.js';
import type { AnalyticsService } from '../analytics/index.js';
import type { SnapshotsService } from '../snapshots/index.js';
import type { StreamsService } from '../streams/index.js';

export interface PlayServiceDeps {
  streams: Pick<StreamsService, 'playerOutput'>;
  snapshots: Pick<SnapshotsService, 'posterTakenAt' | 'posterImage'>;
  /** Issues the viewer session credential the player's beacons carry. */
  analytics: Pick<AnalyticsService, 'issueViewerSession'>;
  /** The API's base path (API_BASE), for the poster's URL. */
  apiBase: string;
}

/**
 * The public side of an output for its embeddable player (`/play/{outputId}`): what it plays and its poster.
 * Anyone with the output's id may read it, so it answers only what a viewer of the output learns anyway.
 */
export class PlayService {
  constructor(private readonly deps: PlayServiceDeps) {}

  async info(outputId: string): Promise<PlayInfo> {
    const output = await this.deps.streams.playerOutput(outputId);
    if (!output) throw notFound('Output');
    const { connection, hlsFallback } = output;
    const takenAt = output.access === 'Public' ? await this.deps.snapshots.posterTakenAt(output.streamId) : null;
    // The page plays the output it is for, with the one player its format has; a WebRTC output's page falls back
    // to the stream's HLS output of the same access where the browser has no WebRTC.
    const hls = output.format === 'HLS' ? connection?.uri : hlsFallback?.connection?.uri;
    return {
      outputId,
      format: output.format,
      streamStatus: output.streamStatus,
      access: output.access,
      hlsLatency: output.format === 'HLS' ? output.hlsLatency : hls ? (hlsFallback?.hlsLatency ?? null) : null,
      playback: {
        ...(output.format === 'WebRTC' && connection?.signallingUri ? { whep: connection.signallingUri } : {}),
        ...(hls ? { hls } : {}),
      },
      // `t` changes with each new snapshot so the page's image is fetched again.
      poster: takenAt
        ? `${this.deps.apiBase}${playRoutes.poster.path.replace(':id', outputId)}?t=${takenAt.getTime()}`
        : null,
      viewerSession: this.deps.analytics.issueViewerSession(outputId),
    };
  }

  /** The poster's image; 404 for an unknown output, one that is not Public, or no snapshot yet. */
  async poster(outputId: string) {
    const output = await this.deps.streams.playerOutput(outputId);
    if (!output) throw notFound('Output');
    const image = output.access === 'Public' ? await this.deps.snapshots.posterImage(output.streamId) : null;
    if (!image) throw notFound('Snapshot');
    return image;
  }
}
