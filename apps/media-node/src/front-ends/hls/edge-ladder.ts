import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { LadderRendition } from '@streamcloud/contract';
import { text } from '../../http-answer.js';
import { edgeLadder, renditionName } from '../../pipelines/edge/ladder.js';
import type { AssignedStream } from '../../streams/directory.js';
import { newestFragment, poll } from '../../streams/fragments.js';
import { sendFragment, sendPlaylist } from './answers.js';
import type { LowLatencyAsk } from './low-latency.js';
import { PlaylistLifetimes } from './playlist-lifetime.js';
import { master, PLAYLIST_POLL_MS, PLAYLIST_WAIT_MS, rewrite } from './playlists.js';
import type { HlsViewer } from './sessions.js';
import type { StandardHlsFiles } from './standard-files.js';

/** On an edge: the origin's ladder its HLS viewers get, and whether the stream ended (its playlists end). */
export interface PlayedLadder {
  ladder: LadderRendition[];
  ended: boolean;
}

/** What a request of a laddered stream on an edge asks for. */
export interface LadderAsk extends PlayedLadder {
  assigned: AssignedStream;
  rendition: string | null;
  file: string;
  lowLatency: LowLatencyAsk | null;
}

export interface EdgeLaddersOptions {
  hlsDir: string;
  /** nginx-rtmp's playlists and fragments, read once for all the viewers of a stream (the HlsServer's). */
  files: StandardHlsFiles;
  /**
   * Pulls a rendition of the origin's ladder (EdgePuller.pullRendition), kept pulled at least until `heldUntil`
   * settles; when it started, or null.
   */
  pullRendition: (assigned: AssignedStream, key: string, heldUntil?: Promise<unknown>) => Promise<number | null>;
  /** Answers a Low latency output's request from its packagers (HlsServer, low-latency.ts). */
  serveLowLatency: (
    request: IncomingMessage,
    response: ServerResponse,
    streamId: string,
    asked: LowLatencyAsk,
  ) => Promise<void>;
  /** Counts bytes sent to a viewer's session (HlsSessions.countTo). */
  countTo: (viewer: HlsViewer) => (bytes: number) => void;
}

/**
 * An edge's HLS of the streams its origins transcode: the origin's ladder is the master, and each variant is
 * pulled from the origin while players ask for it (pipelines/edge). The ladders outlive the origin's push as a
 * push's playlists do (PlaylistLifetimes).
 */
export class EdgeLadders {
  /** The origin's ladder of the laddered streams played here, kept and ended as a push's playlists. */
  private readonly ladders = new PlaylistLifetimes<LadderRendition[]>();

  constructor(private readonly o: EdgeLaddersOptions) {}

  /** The stream is over here (the control plane shows its grace over on the origin): its playlists end. */
  end(streamId: string): void {
    this.ladders.end(streamId);
  }

  /**
   * On an edge, the origin's ladder the stream's HLS viewers get: while the stream shows live (the origin's reconnect
   * grace included) the one the control plane gave, then the last one, ended, as a push's playlists; null when the
   * stream is not laddered here (not an edge, no ladder, or none played since it went live).
   */
  of(assigned: AssignedStream): PlayedLadder | null {
    if (!assigned.origin) return null;
    if (assigned.status === 'Ingestion' || assigned.status === 'Fallback') {
      const ladder = edgeLadder(assigned);
      if (ladder) this.ladders.keep(assigned.id, ladder);
      else this.ladders.forget(assigned.id);
    }
    const played = this.ladders.played(assigned.id);
    return played && { ladder: played.content, ended: played.ended };
  }

  /**
   * An edge's HLS of a stream its origin transcodes: the master is the origin's ladder (at once, nothing pulled
   * for it); a variant's playlist pulls that rendition from the origin (if no pull of it runs) and is answered
   * once the pull wrote its first fragment here; its fragments keep the pull going. When the origin has nothing
   * to pull (its push ended: in its reconnect grace, or over) the variant's playlist is the last one pulled here,
   * unchanged during the grace and ended after it, as the origin's own. A Low latency output's variant is the LL-HLS
   * the rendition's pull packages here (pipelines/edge/rendition-packaging.ts): every request of the output (master,
   * playlist, part) keeps every variant's pull going, and is answered by the variant's packager as on the origin
   * (blocking reloads, rendition reports of its siblings).
   */
  async serve(
    request: IncomingMessage,
    response: ServerResponse,
    asked: LadderAsk,
    viewer: HlsViewer,
    suffix: string,
  ): Promise<void> {
    const { hlsDir, pullRendition } = this.o;
    const { assigned, ladder, ended, rendition, file, lowLatency } = asked;
    // A Low latency output's viewer keeps every variant pulled and packaged here: a player switching variants finds
    // the other's parts at once (and its rendition report). A cold switch stalls it, and hls.js then adds a second
    // to its distance from live for the rest of the session (liveSyncOnStallIncrease).
    const pullAll = (heldUntil?: Promise<unknown>) => {
      if (!ended) for (const variant of ladder) void pullRendition(assigned, variant.key, heldUntil);
    };
    if (rendition === null) {
      if (file !== 'index.m3u8') return text(response, 404, 'No such fragment');
      if (lowLatency) pullAll();
      return sendPlaylist(response, viewer, master(ladder, suffix));
    }
    if (!ladder.some((variant) => variant.key === rendition)) return text(response, 404, 'the stream is not live');
    if (lowLatency) {
      // Answered from the packager as soon as it has the part asked for; the renditions stay pulled while the
      // request is held (the wait for a new pull's first part, a blocking reload), not only when it was made.
      const answered = this.o.serveLowLatency(request, response, assigned.id, lowLatency);
      pullAll(answered);
      return answered;
    }
    const name = renditionName(assigned.id, rendition);
    const pulled = ended ? Promise.resolve(null) : pullRendition(assigned, rendition);
    if (!file.endsWith('.m3u8')) {
      // Served from here whether or not the pull starts: the player asks for what a playlist listed.
      void pulled;
      return sendFragment(response, this.o.files, join(hlsDir, name, file), this.o.countTo(viewer));
    }
    const startedAt = await pulled;
    if (startedAt === null) {
      const last = await this.o.files.playlist(join(hlsDir, name));
      return sendPlaylist(response, viewer, last === null ? null : rewrite(last, { suffix, ended }));
    }
    const deadline = Date.now() + PLAYLIST_WAIT_MS;
    const fragment = await poll(
      () => newestFragment(hlsDir, name, startedAt),
      () => !request.socket.destroyed && Date.now() < deadline,
      PLAYLIST_POLL_MS,
    );
    // Read now: a read of a moment ago may predate the fragment just found.
    const playlist = fragment === null ? null : await this.o.files.playlist(join(hlsDir, name), { fresh: true });
    return sendPlaylist(response, viewer, playlist === null ? null : rewrite(playlist, { suffix, ended: false }));
  }
}
