import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { text } from '../../http-answer.js';
import type { LowLatencyPackagers } from '../../ll-hls/packagers.js';
import { isLowLatencyHls } from '../../pipelines/low-latency-hls.js';
import { isStoryboardFile, VTT_FILE } from '../../storyboard/layout.js';
import { serveWindowStoryboard } from '../../storyboard/serve.js';
import type { AssignedStream } from '../../streams/directory.js';
import { poll } from '../../streams/fragments.js';
import type { StreamManager } from '../../streams/manager.js';
import { NO_PREVIEW_SEAT } from '../../streams/preview-seats.js';
import { browserViewer } from '../../streams/signed-playback.js';
import type { LiveStream } from '../../streams/types.js';
import type { VodLibrary } from '../../vod/library.js';
import { serveVod, VOD_PATH } from '../../vod/serve.js';
import type { FrontEndKind } from '../front-end.js';
import { pathAfterRoute } from '../http/server.js';
import { sendFragment, sendPlaylist } from './answers.js';
import { removeOldFragments } from './cleanup.js';
import { EdgeLadders } from './edge-ladder.js';
import { type LowLatencyAsk, serveLowLatencyOutput } from './low-latency.js';
import { PlaylistLifetimes } from './playlist-lifetime.js';
import { master, PLAYLIST_POLL_MS, PLAYLIST_WAIT_MS, rewrite } from './playlists.js';
import { HlsSessions, remoteAddressOf, sessionBinding } from './sessions.js';
import { StandardHlsFiles } from './standard-files.js';

/** nginx-rtmp's playlists and TS fragments, and the LL-HLS packager's init segments, parts and segments. */
const FILE = /^[\w.-]+\.(ts|m3u8|mp4|m4s)$/;
/** What a player may ask for first, without a session id (it is redirected to one): a playlist or a storyboard. */
const opensSession = (file: string) => file.endsWith('.m3u8') || file === VTT_FILE;
const RENDITION = /^[ra]\d{1,2}$/;
const OTHER_SESSION = 'This session id is not one of this output and credential: open the playlist again';

/** The push an HLS output plays: the live one, or the last one while its playlist outlives it. */
interface Played {
  stream: LiveStream;
  /** The reconnect grace ended without a new push: the playlist ends (EXT-X-ENDLIST). */
  ended: boolean;
}

/**
 * HLS playback of outputs: `/hls/<output name>/index.m3u8` (the name URL-encoded, `?token=` for a
 * Private stream's output). The first playlist request is redirected to the same URL with a session id
 * (`sid`), which every playlist then carries into its URLs, so each viewer is one session with its bytes
 * counted; the id is bound to the stream, output and credential it was opened with (sessions.ts). A transcoded
 * stream's `index.m3u8` is a master playlist with one variant per rendition (`<key>/index.m3u8`); otherwise it is the push's media playlist. Playlists are nginx-rtmp's, with an
 * EXT-X-PROGRAM-DATE-TIME per fragment (its name is the wall-clock time it started). They outlive a push
 * that ends: unchanged during the reconnect grace (a resumed push continues them after an
 * EXT-X-DISCONTINUITY, which nginx-rtmp writes), then ended with EXT-X-ENDLIST for 30 s (PlaylistLifetimes). On an
 * edge of a stream its origin transcodes, the master is the origin's ladder, answered at once, and each variant is
 * pulled from the origin while players ask for it (edge-ladder.ts). An edge's playlists outlive the origin's push
 * by the same rule: the stream's end here (`gone`) is when the control plane shows its grace over on the origin.
 */
export class HlsServer {
  private readonly sessions: HlsSessions;
  /** The last push of streams that are not live: played during the grace and the linger after it. */
  private readonly recent = new PlaylistLifetimes<LiveStream>();
  /** On an edge: the origin's ladders of the laddered streams played here. */
  private readonly ladders: EdgeLadders;
  private readonly sweeper: NodeJS.Timeout;
  /** nginx-rtmp's playlists and fragments, read once for all the viewers of a stream. */
  private readonly files = new StandardHlsFiles();

  constructor(
    private readonly manager: StreamManager,
    private readonly hlsDir: string,
    /**
     * On an edge: pulls a rendition of the origin's ladder (EdgePuller.pullRendition), kept pulled at least until
     * `heldUntil` settles; when it started, or null.
     */
    pullRendition: (
      assigned: AssignedStream,
      key: string,
      heldUntil?: Promise<unknown>,
    ) => Promise<number | null> = async () => null,
    /** The LL-HLS packagers of streams with a Low latency output (pipelines/low-latency-hls.ts). */
    private readonly lowLatency: LowLatencyPackagers | null = null,
    /** The VODs of ended sessions kept here (vod/): `<output>/vod/index.m3u8`, whether or not the stream is live. */
    private readonly vods: VodLibrary | null = null,
  ) {
    this.sessions = new HlsSessions(manager);
    this.ladders = new EdgeLadders({
      hlsDir,
      files: this.files,
      pullRendition,
      serveLowLatency: (request, response, streamId, asked) => this.serveLowLatency(request, response, streamId, asked),
      countTo: (viewer) => this.sessions.countTo(viewer),
    });
    this.sweeper = setInterval(() => void this.sweep(), 2000);
    this.sweeper.unref();
    manager.events.subscribe({
      live: (stream) => this.recent.forget(stream.assigned.id),
      ended: (stream) => this.recent.keep(stream.assigned.id, stream),
      gone: (streamId) => {
        this.recent.end(streamId);
        this.ladders.end(streamId);
      },
    });
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  async handle(
    request: IncomingMessage,
    response: ServerResponse,
    segments: string[],
    query: URLSearchParams,
  ): Promise<void> {
    // <output>/<file>, or <output>/<rendition>/<file> for a variant of a transcoded stream.
    const [outputName, ...rest] = segments;
    const file = rest[rest.length - 1];
    const rendition = rest.length === 2 ? (rest[0] ?? null) : null;
    if (
      !outputName ||
      !file ||
      rest.length > 2 ||
      !(FILE.test(file) || isStoryboardFile(file)) ||
      (rendition !== null && rendition !== VOD_PATH && !RENDITION.test(rendition))
    )
      return text(response, 404, 'Not found');
    const vod = rendition === VOD_PATH;
    const token = query.get('token');
    const sid = query.get('sid');
    const address = remoteAddressOf(request);
    // A player's next playlist or fragment continues its session: a rotated-out token's window end does not cut it.
    const running = this.sessions.running(sid);
    const admitted = await this.manager.admission.output('HLS', outputName, {
      ...browserViewer(request, token, address, sid),
      running,
    });
    if (!admitted.ok) return text(response, admitted.status, admitted.reason);
    if (vod && !this.vods?.has(admitted.assigned.id)) return text(response, 404, 'The stream has no VOD on this node');
    // An edge pulls the stream from its ingest node for the first of its viewers; a ladder's variants are
    // pulled one by one as they are asked for (below).
    const ladder = vod ? null : this.ladders.of(admitted.assigned);
    if (admitted.assigned.origin && !ladder && !vod) await this.manager.admission.live(admitted.assigned);
    const played = ladder || vod ? null : this.played(admitted.assigned.id);
    if (!ladder && !played && !vod) return text(response, 404, 'the stream is not live');
    const ended = this.sessions.endedWhy(sid);
    if (ended !== undefined) return ended ? text(response, 403, ended) : text(response, 410, 'This session was ended');
    // A session plays what it was opened for: another output's (or stream's) id, or one opened with another kind
    // of credential (a preview's, then a viewer token), starts a new session here — its playlist is redirected
    // to a fresh id, its fragments refused (a player only asks for those with the id its playlist gave).
    const binding = sessionBinding(admitted, token);
    if (!sid || !this.sessions.isSessionOf(sid, binding)) {
      if (!opensSession(file)) return text(response, 403, sid ? OTHER_SESSION : 'Open the playlist first');
      const params = new URLSearchParams({ sid: this.sessions.newSessionId(binding), ...(token ? { token } : {}) });
      response.writeHead(302, {
        location: `${file}?${params}`,
        'cache-control': 'no-store',
      });
      response.end();
      return;
    }
    const viewer = this.sessions.viewer(sid, request, admitted, token);
    if (!viewer) return text(response, 429, NO_PREVIEW_SEAT);
    const suffix = `?${new URLSearchParams({ sid, ...(token ? { token } : {}) })}`;
    if (vod && this.vods) {
      const count = this.sessions.countTo(viewer);
      return serveVod(response, { library: this.vods, streamId: admitted.assigned.id, file, suffix, count });
    }
    const output = admitted.assigned.outputs.find((each) => each.id === admitted.outputId);
    const low = this.lowLatency && output && isLowLatencyHls(output) ? output : null;
    // A laddered stream's master playlist is the same for both latencies (its variants' URIs are); the variants differ.
    const lowLatency = low && {
      key: rendition,
      file,
      query,
      suffix,
      viewer,
      windowSeconds: 60 * (low.dvrWindowMinutes ?? 0),
    };
    if (isStoryboardFile(file) && rendition === null) {
      const found = ladder ? null : (this.lowLatency?.storyboardOf(admitted.assigned.id) ?? null);
      const windowSeconds = lowLatency ? lowLatency.windowSeconds : 0;
      const count = this.sessions.countTo(viewer);
      return serveWindowStoryboard(response, { found, file, suffix, windowSeconds, count });
    }
    if (ladder)
      return this.ladders.serve(
        request,
        response,
        { assigned: admitted.assigned, ...ladder, rendition, file, lowLatency },
        viewer,
        suffix,
      );
    if (!played) return;
    const { stream } = played;
    const master = rendition === null && file === 'index.m3u8' && stream.outgoing.renditions !== null;
    if (lowLatency && !master) return this.serveLowLatency(request, response, admitted.assigned.id, lowLatency);
    if (file.endsWith('.m3u8')) {
      const playlist = await this.awaitPlaylist(request, admitted.assigned.id, played, rendition, suffix);
      return sendPlaylist(response, viewer, playlist);
    }
    const dir = rendition ? this.renditionDir(stream, rendition) : join(this.hlsDir, stream.outgoing.main.hlsName);
    return sendFragment(response, this.files, join(dir, file), this.sessions.countTo(viewer));
  }

  /**
   * A Low latency output: from its stream's packager, once it has one (a stream that just went live, or an
   * output just made Low latency, waits for it as a Standard playlist waits for its first fragment).
   */
  private async serveLowLatency(
    request: IncomingMessage,
    response: ServerResponse,
    streamId: string,
    asked: LowLatencyAsk,
  ): Promise<void> {
    if (!this.lowLatency) return;
    const count = this.sessions.countTo(asked.viewer);
    return serveLowLatencyOutput(request, response, this.lowLatency, streamId, asked, count);
  }

  /** The push a stream's outputs play now: live, in its reconnect grace, or ended less than the linger ago. */
  private played(streamId: string): Played | null {
    const live = this.manager.push(streamId);
    if (live) return { stream: live, ended: false };
    const last = this.recent.played(streamId);
    return last && { stream: last.content, ended: last.ended };
  }

  /**
   * The playlist of `rendition` (a variant of the master), or the output's own `index.m3u8`: the master
   * of a transcoded stream, else the media playlist of what viewers get. Null when there is none yet.
   */
  private async playlist(played: Played, rendition: string | null, suffix: string): Promise<string | null> {
    const { stream, ended } = played;
    const { renditions, main } = stream.outgoing;
    if (rendition) {
      const dir = this.renditionDir(stream, rendition);
      const own = await this.files.playlist(dir);
      if (own !== null) return rewrite(own, { suffix, ended });
      // The transcoder gave up (its renditions are gone): the variant plays the push as it came.
      const source = await this.files.playlist(join(this.hlsDir, stream.source.hlsName));
      return source === null ? null : rewrite(source, { prefix: '../', suffix, ended });
    }
    if (renditions === null) {
      const media = await this.files.playlist(join(this.hlsDir, main.hlsName));
      return media === null ? null : rewrite(media, { suffix, ended });
    }
    // Renditions are starting: the master comes once each has a fragment.
    if (renditions.length === 0) return null;
    return master(renditions, suffix);
  }

  /**
   * The playlist, waiting for it (polled, at most PLAYLIST_WAIT_MS) while the push is live and the
   * request still open; null when there is still none, the push ended or the player went away.
   */
  private async awaitPlaylist(
    request: IncomingMessage,
    streamId: string,
    played: Played,
    rendition: string | null,
    suffix: string,
  ): Promise<string | null> {
    const deadline = Date.now() + PLAYLIST_WAIT_MS;
    const now = await this.playlist(played, rendition, suffix);
    if (now !== null) return now;
    // Only a live push is worth waiting for: one that ended writes no new fragment.
    const live = () => this.manager.push(streamId);
    return poll(
      async () => {
        const stream = live();
        return stream ? this.playlist({ stream, ended: false }, rendition, suffix) : null;
      },
      () => live() !== undefined && !request.socket.destroyed && Date.now() < deadline,
      PLAYLIST_POLL_MS,
    );
  }

  /** A rendition's fragments: `<stream id>_<key>`, whether or not the transcoder runs now. */
  private renditionDir(stream: LiveStream, key: string): string {
    return join(this.hlsDir, `${stream.assigned.id}_${key}`);
  }

  /** Idle sessions end; old fragments and the directories of streams long gone are deleted. */
  private async sweep(): Promise<void> {
    const now = Date.now();
    this.sessions.sweep(now);
    await removeOldFragments(this.hlsDir, now);
  }
}

/** HLS playback on the node's HTTP port, of what nginx-rtmp and the LL-HLS packagers write. */
export const hlsFrontEnd: FrontEndKind<HlsServer> = {
  name: 'hls',
  needs: ['nginx'],
  routes: { hls: { status: 503, message: 'HLS is not available on this node' } },
  async start({ config, manager, edges, lowLatency, vods }) {
    const hls = new HlsServer(
      manager,
      `${config.dataDir}/hls`,
      (assigned, key, heldUntil) => edges.pullRendition(assigned, key, heldUntil),
      lowLatency,
      vods,
    );
    return {
      server: hls,
      routes: {
        hls: (request, response, { segments, url }) =>
          hls.handle(request, response, pathAfterRoute(segments), url.searchParams),
      },
      stop: () => hls.close(),
    };
  },
};
