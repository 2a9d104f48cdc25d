import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { AssignedInput, LadderRendition } from '@streamcloud/contract';
import { text } from '../../http-answer.js';
import type { LowLatencyPackagers } from '../../ll-hls/packagers.js';
import { serveLowLatency } from '../../ll-hls/serve.js';
import { edgeLadder, renditionName } from '../../pipelines/edge/ladder.js';
import { isLowLatencyHls } from '../../pipelines/low-latency-hls.js';
import { newestFragment, poll } from '../../streams/fragments.js';
import type { StreamManager } from '../../streams/manager.js';
import { NO_PREVIEW_SEAT } from '../../streams/preview-seats.js';
import { browserViewer } from '../../streams/signed-playback.js';
import type { LiveStream, SignedGrant } from '../../streams/types.js';
import type { VodLibrary } from '../../vod/library.js';
import { serveVod, VOD_PATH } from '../../vod/serve.js';
import { PlaylistLifetimes } from './playlist-lifetime.js';
import { master, readPlaylist, rewrite } from './playlists.js';

/** An HLS viewer whose player has not asked for anything this long has left. */
const HLS_SESSION_IDLE_MS = 20_000;
/** Fragments are deleted this long after they were written, a stream's directory when it was idle this long. */
const FRAGMENT_KEEP_MS = 60_000;
/**
 * A playlist asked for while the live push has none yet (its first fragment is still being written, or
 * its renditions are starting) is answered once it exists, up to this long, rather than with a 404 that
 * makes a player (ffprobe, hls.js, Safari) give up on a stream that is merely starting.
 */
export const PLAYLIST_WAIT_MS = 10_000;
/** A first viewer waits for the first fragment: looked for this often (a read of the playlist), so it is answered soon after. */
const PLAYLIST_POLL_MS = 50;
const DIRECTORY_KEEP_MS = 120_000;
/** nginx-rtmp's playlists and TS fragments, and the LL-HLS packager's init segments, parts and segments. */
const FILE = /^[\w.-]+\.(ts|m3u8|mp4|m4s)$/;
const RENDITION = /^[ra]\d{1,2}$/;
/**
 * A session id: `hls-<16 random bytes>.<16 bytes of an HMAC of them and what the session plays>`, base64url. The
 * random part makes it unguessable; the MAC binds it to its stream, output and credential kind (the preview
 * credential itself for a preview), so it is worth nothing anywhere else (HlsServer.handle).
 */
const SESSION_ID = /^hls-([\w-]{22})\.([\w-]{22})$/;
const OTHER_SESSION = 'This session id is not one of this output and credential: open the playlist again';

interface HlsViewer {
  sessionId: string;
  bytes: number;
  lastSeen: number;
}

/** The push an HLS output plays: the live one, or the last one while its playlist outlives it. */
interface Played {
  stream: LiveStream;
  /** The reconnect grace ended without a new push: the playlist ends (EXT-X-ENDLIST). */
  ended: boolean;
}

/** A request of a Low latency output, as its stream's packagers answer it. */
interface LowLatencyAsk {
  /** A ladder's variant (its rendition key), or null. */
  key: string | null;
  file: string;
  query: URLSearchParams;
  suffix: string;
  viewer: HlsViewer;
  /** The output's rewind window, seconds (0: the live window). */
  windowSeconds: number;
}

/** On an edge: the origin's ladder its HLS viewers get, and whether the stream ended (its playlists end). */
interface PlayedLadder {
  ladder: LadderRendition[];
  ended: boolean;
}

/**
 * HLS playback of outputs: `/hls/<output name>/index.m3u8` (the name URL-encoded, `?token=` for a
 * Private stream's output). The first playlist request is redirected to the same URL with a session id
 * (`sid`), which every playlist then carries into its URLs, so each viewer is one session with its bytes
 * counted; the id is bound to the stream, output and credential it was opened with (SESSION_ID). A transcoded stream's `index.m3u8` is a master playlist with one variant per rendition
 * (`<key>/index.m3u8`); otherwise it is the push's media playlist. Playlists are nginx-rtmp's, with an
 * EXT-X-PROGRAM-DATE-TIME per fragment (its name is the wall-clock time it started). They outlive a push
 * that ends: unchanged during the reconnect grace (a resumed push continues them after an
 * EXT-X-DISCONTINUITY, which nginx-rtmp writes), then ended with EXT-X-ENDLIST for 30 s (PlaylistLifetimes). On an
 * edge of a stream its origin transcodes, the master is the origin's ladder, answered at once, and each variant is
 * pulled from the origin while players ask for it (pipelines/edge). An edge's playlists outlive the origin's push
 * by the same rule: the stream's end here (`gone`) is when the control plane shows its grace over on the origin.
 */
export class HlsServer {
  private readonly viewers = new Map<string, HlsViewer>();
  /**
   * Sessions ended here: their requests get 410 from then on (cleared from the control plane), or 403 with the
   * reason a player shows (a playback token revoked or over).
   */
  private readonly kicked = new Map<string, string | null>();
  /** The last push of inputs that are not live: played during the grace and the linger after it. */
  private readonly recent = new PlaylistLifetimes<LiveStream>();
  /** On an edge: the origin's ladder of the laddered streams played here, kept and ended as a push's playlists. */
  private readonly ladders = new PlaylistLifetimes<LadderRendition[]>();
  private readonly sweeper: NodeJS.Timeout;
  /** The key of session ids' MACs: this process's own (a restarted node's players get new sessions). */
  private readonly sessionKey = randomBytes(32);

  constructor(
    private readonly manager: StreamManager,
    private readonly hlsDir: string,
    /**
     * On an edge: pulls a rendition of the origin's ladder (EdgePuller.pullRendition), kept pulled at least until
     * `heldUntil` settles; when it started, or null.
     */
    private readonly pullRendition: (
      input: AssignedInput,
      key: string,
      heldUntil?: Promise<unknown>,
    ) => Promise<number | null> = async () => null,
    /** The LL-HLS packagers of streams with a Low latency output (pipelines/low-latency-hls.ts). */
    private readonly lowLatency: LowLatencyPackagers | null = null,
    /** The VODs of ended sessions kept here (vod/): `<output>/vod/index.m3u8`, whether or not the stream is live. */
    private readonly vods: VodLibrary | null = null,
  ) {
    this.sweeper = setInterval(() => void this.sweep(), 2000);
    this.sweeper.unref();
    manager.events.subscribe({
      live: (stream) => this.recent.forget(stream.input.id),
      ended: (stream) => this.recent.keep(stream.input.id, stream),
      gone: (inputId) => {
        this.recent.end(inputId);
        this.ladders.end(inputId);
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
      !FILE.test(file) ||
      (rendition !== null && rendition !== VOD_PATH && !RENDITION.test(rendition))
    )
      return text(response, 404, 'Not found');
    const vod = rendition === VOD_PATH;
    const token = query.get('token');
    const sid = query.get('sid');
    const address = remoteAddressOf(request);
    // A player's next playlist or fragment continues its session: a rotated-out token's window end does not cut it.
    const running = sid !== null && this.viewers.has(sid) && this.manager.viewers.get(sid) !== undefined;
    const admitted = await this.manager.admission.output('HLS', outputName, {
      ...browserViewer(request, token, address, sid),
      running,
    });
    if (!admitted.ok) return text(response, admitted.status, admitted.reason);
    if (vod && !this.vods?.has(admitted.input.id)) return text(response, 404, 'The stream has no VOD on this node');
    // An edge pulls the stream from its ingest node for the first of its viewers; a ladder's variants are
    // pulled one by one as they are asked for (below).
    const ladder = vod ? null : this.edgeLadder(admitted.input);
    if (admitted.input.origin && !ladder && !vod) await this.manager.admission.live(admitted.input);
    const played = ladder || vod ? null : this.played(admitted.input.id);
    if (!ladder && !played && !vod) return text(response, 404, 'the stream is not live');
    const ended = sid ? this.kicked.get(sid) : undefined;
    if (ended !== undefined) return ended ? text(response, 403, ended) : text(response, 410, 'This session was ended');
    // A session plays what it was opened for: another output's (or stream's) id, or one opened with another kind
    // of credential (a preview's, then a viewer token), starts a new session here — its playlist is redirected
    // to a fresh id, its fragments refused (a player only asks for those with the id its playlist gave).
    const binding = sessionBinding(admitted, token);
    if (!sid || !this.sessionIdOf(sid, binding)) {
      if (!file.endsWith('.m3u8')) return text(response, 403, sid ? OTHER_SESSION : 'Open the playlist first');
      const params = new URLSearchParams({ sid: this.newSessionId(binding), ...(token ? { token } : {}) });
      response.writeHead(302, {
        location: `${file}?${params}`,
        'cache-control': 'no-store',
      });
      response.end();
      return;
    }
    const viewer = this.viewer(sid, request, admitted, token);
    if (!viewer) return text(response, 429, NO_PREVIEW_SEAT);
    const suffix = `?${new URLSearchParams({ sid, ...(token ? { token } : {}) })}`;
    if (vod && this.vods) {
      const count = this.countTo(viewer);
      return serveVod(response, { library: this.vods, inputId: admitted.input.id, file, suffix, count });
    }
    const output = admitted.input.outputs.find((each) => each.id === admitted.outputId);
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
    if (ladder)
      return this.serveEdgeLadder(
        request,
        response,
        { input: admitted.input, ...ladder, rendition, file, lowLatency },
        viewer,
        suffix,
      );
    if (!played) return;
    const { stream } = played;
    const master = rendition === null && file === 'index.m3u8' && stream.outgoing.renditions !== null;
    if (lowLatency && !master) return this.serveLowLatency(request, response, admitted.input.id, lowLatency);
    if (file.endsWith('.m3u8')) {
      const playlist = await this.awaitPlaylist(request, admitted.input.id, played, rendition, suffix);
      return sendPlaylist(response, viewer, playlist);
    }
    const dir = rendition ? this.renditionDir(stream, rendition) : join(this.hlsDir, stream.outgoing.main.hlsName);
    return this.sendFragment(response, viewer, join(dir, file));
  }

  /**
   * A Low latency output: from its stream's packager, once it has one (a stream that just went live, or an
   * output just made Low latency, waits for it as a Standard playlist waits for its first fragment).
   */
  private async serveLowLatency(
    request: IncomingMessage,
    response: ServerResponse,
    inputId: string,
    asked: LowLatencyAsk,
  ): Promise<void> {
    const lowLatency = this.lowLatency;
    if (!lowLatency) return;
    const deadline = Date.now() + PLAYLIST_WAIT_MS;
    // A playlist of parts only (a packaging that just started) is nothing to a player that does not know LL-HLS
    // (ffmpeg finds no segment in it, and no stream): a playlist asked without a blocking reload, as a player's
    // first, waits for a complete segment too — unless there is none to wait for (the push ended meanwhile).
    const firstLoad = asked.file === 'index.m3u8' && !asked.query.has('_HLS_msn');
    const withParts = () => {
      const found = lowLatency.of(inputId, asked.key);
      return found?.lastPart() ? found : null;
    };
    const playable = async () => {
      const found = withParts();
      const last = found?.lastPart();
      return found && last && (!firstLoad || found.lists(last.msn - 1, 0)) ? found : null;
    };
    const going = () => !request.socket.destroyed && Date.now() < deadline;
    const packager = (await poll(playable, going, PLAYLIST_POLL_MS)) ?? withParts();
    if (!packager) return text(response, 404, 'The stream has no playlist yet');
    // Each variant's playlist reports where its siblings are, so a player switching variants asks the right part.
    const renditionReports = lowLatency
      .variants(inputId)
      .filter((variant) => variant.key !== asked.key)
      .flatMap(({ key, packager: sibling }) => {
        const last = sibling.lastPart();
        return last ? [{ uri: `../${key}/index.m3u8${asked.suffix}`, lastMsn: last.msn, lastPart: last.part }] : [];
      });
    return serveLowLatency(response, {
      packager,
      renditionReports,
      ...asked,
      count: this.countTo(asked.viewer),
    });
  }

  /** Counts bytes sent to the viewer's session while it lasts (a kicked or idle session counts no more). */
  private countTo(viewer: HlsViewer): (bytes: number) => void {
    return (bytes) => {
      const state = this.viewers.get(viewer.sessionId);
      if (state) state.bytes += bytes;
    };
  }

  /**
   * On an edge, the origin's ladder the input's HLS viewers get: while the stream shows live (the origin's reconnect
   * grace included) the one the control plane gave, then the last one, ended, as a push's playlists; null when the
   * stream is not laddered here (not an edge, no ladder, or none played since it went live).
   */
  private edgeLadder(input: AssignedInput): PlayedLadder | null {
    if (!input.origin) return null;
    if (input.status === 'Ingestion' || input.status === 'Fallback') {
      const ladder = edgeLadder(input);
      if (ladder) this.ladders.keep(input.id, ladder);
      else this.ladders.forget(input.id);
    }
    const played = this.ladders.played(input.id);
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
  private async serveEdgeLadder(
    request: IncomingMessage,
    response: ServerResponse,
    asked: PlayedLadder & {
      input: AssignedInput;
      rendition: string | null;
      file: string;
      lowLatency: LowLatencyAsk | null;
    },
    viewer: HlsViewer,
    suffix: string,
  ): Promise<void> {
    const { input, ladder, ended, rendition, file, lowLatency } = asked;
    // A Low latency output's viewer keeps every variant pulled and packaged here: a player switching variants finds
    // the other's parts at once (and its rendition report). A cold switch stalls it, and hls.js then adds a second
    // to its distance from live for the rest of the session (liveSyncOnStallIncrease).
    const pullAll = (heldUntil?: Promise<unknown>) => {
      if (!ended) for (const variant of ladder) void this.pullRendition(input, variant.key, heldUntil);
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
      const answered = this.serveLowLatency(request, response, input.id, lowLatency);
      pullAll(answered);
      return answered;
    }
    const name = renditionName(input.id, rendition);
    const pulled = ended ? Promise.resolve(null) : this.pullRendition(input, rendition);
    if (!file.endsWith('.m3u8')) {
      // Served from here whether or not the pull starts: the player asks for what a playlist listed.
      void pulled;
      return this.sendFragment(response, viewer, join(this.hlsDir, name, file));
    }
    const startedAt = await pulled;
    if (startedAt === null) {
      const last = await readPlaylist(join(this.hlsDir, name));
      return sendPlaylist(response, viewer, last === null ? null : rewrite(last, { suffix, ended }));
    }
    const deadline = Date.now() + PLAYLIST_WAIT_MS;
    const fragment = await poll(
      () => newestFragment(this.hlsDir, name, startedAt),
      () => !request.socket.destroyed && Date.now() < deadline,
      PLAYLIST_POLL_MS,
    );
    const playlist = fragment === null ? null : await readPlaylist(join(this.hlsDir, name));
    return sendPlaylist(response, viewer, playlist === null ? null : rewrite(playlist, { suffix, ended: false }));
  }

  /** A fragment file, its bytes counted to the viewer's session. */
  private async sendFragment(response: ServerResponse, viewer: HlsViewer, fragment: string): Promise<void> {
    let size: number;
    try {
      size = (await stat(fragment)).size;
    } catch {
      return text(response, 404, 'No such fragment');
    }
    response.writeHead(200, {
      'content-type': 'video/mp2t',
      'content-length': size,
      'cache-control': 'max-age=60',
    });
    const reader = createReadStream(fragment);
    reader.on('data', (chunk) => {
      const state = this.viewers.get(viewer.sessionId);
      if (state) state.bytes += chunk.length;
    });
    reader.on('error', () => response.destroy());
    reader.pipe(response);
  }

  /** The push an input's outputs play now: live, in its reconnect grace, or ended less than the linger ago. */
  private played(inputId: string): Played | null {
    const live = this.manager.push(inputId);
    if (live) return { stream: live, ended: false };
    const last = this.recent.played(inputId);
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
      const own = await readPlaylist(dir);
      if (own !== null) return rewrite(own, { suffix, ended });
      // The transcoder gave up (its renditions are gone): the variant plays the push as it came.
      const source = await readPlaylist(join(this.hlsDir, stream.source.hlsName));
      return source === null ? null : rewrite(source, { prefix: '../', suffix, ended });
    }
    if (renditions === null) {
      const media = await readPlaylist(join(this.hlsDir, main.hlsName));
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
    inputId: string,
    played: Played,
    rendition: string | null,
    suffix: string,
  ): Promise<string | null> {
    const deadline = Date.now() + PLAYLIST_WAIT_MS;
    const now = await this.playlist(played, rendition, suffix);
    if (now !== null) return now;
    // Only a live push is worth waiting for: one that ended writes no new fragment.
    const live = () => this.manager.push(inputId);
    return poll(
      async () => {
        const stream = live();
        return stream ? this.playlist({ stream, ended: false }, rendition, suffix) : null;
      },
      () => live() !== undefined && !request.socket.destroyed && Date.now() < deadline,
      PLAYLIST_POLL_MS,
    );
  }

  /** A rendition's fragments: `<input id>_<key>`, whether or not the transcoder runs now. */
  private renditionDir(stream: LiveStream, key: string): string {
    return join(this.hlsDir, `${stream.input.id}_${key}`);
  }

  /** A new session id bound to `binding` (see SESSION_ID). */
  private newSessionId(binding: string): string {
    const id = randomBytes(16).toString('base64url');
    return `hls-${id}.${this.sessionMac(id, binding)}`;
  }

  /** Whether `sid` is a session id this node made for `binding`. */
  private sessionIdOf(sid: string, binding: string): boolean {
    const [, id = '', mac = ''] = SESSION_ID.exec(sid) ?? [];
    if (!id) return false;
    return timingSafeEqual(Buffer.from(mac), Buffer.from(this.sessionMac(id, binding)));
  }

  private sessionMac(id: string, binding: string): string {
    return createHmac('sha256', this.sessionKey)
      .update(`${id}|${binding}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }

  /**
   * The session of `sid`: a player that comes back after its session ended starts it again under the same id. A
   * preview's new session needs a seat of its credential (PreviewSeats): null when it has none.
   */
  private viewer(
    sid: string,
    request: IncomingMessage,
    {
      input,
      outputId,
      preview,
      grant,
    }: { input: { id: string }; outputId: string; preview: boolean; grant: SignedGrant | null },
    token: string | null,
  ): HlsViewer | null {
    let viewer = this.viewers.get(sid);
    if (!viewer || !this.manager.viewers.get(sid)) {
      if (preview && !this.manager.viewers.previewSeats.take(token ?? '', sid)) return null;
      const state: HlsViewer = { sessionId: sid, bytes: 0, lastSeen: Date.now() };
      viewer = state;
      this.viewers.set(sid, state);
      this.manager.viewers.start({
        id: sid,
        inputId: input.id,
        outputId,
        format: 'HLS',
        preview,
        ...(grant ? { grant } : {}),
        ipAddress: remoteAddressOf(request),
        bytesOut: () => state.bytes,
        bytesIn: () => 0,
        kick: (reason) => {
          this.kicked.set(sid, reason ?? null);
          this.viewers.delete(sid);
        },
      });
    }
    viewer.lastSeen = Date.now();
    return viewer;
  }

  /** Idle sessions end; old fragments and the directories of streams long gone are deleted. */
  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const [id, viewer] of this.viewers) {
      if (now - viewer.lastSeen < HLS_SESSION_IDLE_MS) continue;
      this.viewers.delete(id);
      this.manager.viewers.end(id);
    }
    // Kicked ids are remembered a while only.
    if (this.kicked.size > 10_000) this.kicked.clear();
    let names: string[];
    try {
      names = await readdir(this.hlsDir);
    } catch {
      return;
    }
    for (const name of names) {
      const dir = join(this.hlsDir, name);
      try {
        const files = await readdir(dir);
        const playlist = await stat(join(dir, 'index.m3u8')).catch(() => null);
        if (!playlist || now - playlist.mtimeMs > DIRECTORY_KEEP_MS) {
          // Gone only when nothing in it, nor the directory itself (a push that just started), is recent.
          const times = await Promise.all(
            [dir, ...files.map((entry) => join(dir, entry))].map((path) => stat(path).then((info) => info.mtimeMs)),
          );
          if (times.every((mtime) => now - mtime > DIRECTORY_KEEP_MS)) await rm(dir, { recursive: true, force: true });
          continue;
        }
        for (const entry of files) {
          if (!entry.endsWith('.ts')) continue;
          const info = await stat(join(dir, entry));
          if (now - info.mtimeMs > FRAGMENT_KEEP_MS) await rm(join(dir, entry), { force: true });
        }
      } catch {
        // written or deleted meanwhile
      }
    }
  }
}

/** A playlist to the viewer (its bytes counted to the session), or 404 while there is none yet. */
function sendPlaylist(response: ServerResponse, viewer: HlsViewer, playlist: string | null): void {
  if (playlist === null) {
    text(response, 404, 'The stream has no playlist yet');
    return;
  }
  const body = Buffer.from(playlist);
  viewer.bytes += body.length;
  response.writeHead(200, {
    'content-type': 'application/vnd.apple.mpegurl',
    'cache-control': 'no-store',
    'content-length': body.length,
  });
  response.end(body);
}

/** What an HLS session id is bound to: the stream, the output, and the preview credential (or "a viewer"). */
const remoteAddressOf = (request: IncomingMessage) =>
  (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '') || null;

function sessionBinding(admitted: { input: { id: string }; outputId: string; preview: boolean }, token: string | null) {
  return [admitted.input.id, admitted.outputId, admitted.preview ? `preview ${token}` : 'viewer'].join('|');
}
