import type { ServerResponse } from 'node:http';
import { text } from '../http-answer.js';
import { parseLowLatencyFile } from './files.js';
import type { LowLatencyPackager } from './packager.js';
import type { RenditionReport } from './playlist.js';

/**
 * How long a blocking request (a playlist with `_HLS_msn`, a preload-hinted part) is held before a 503: three
 * target durations (RFC 8216bis, 6.2.5.2), for segments of up to 2 s.
 */
const BLOCK_MS = 6000;
/** `_HLS_msn` and `_HLS_part` are decimal integers (bounded: a player asks about the next few parts). */
const DECIMAL = /^\d{1,9}$/;

/** What the LL-HLS handler needs of the HLS server's session: its URIs' query, and the count of its bytes. */
export interface LowLatencyRequest {
  packager: LowLatencyPackager;
  /** The asked file: `index.m3u8`, `init-<period>.mp4`, `part-<msn>.<index>.m4s` or `seg-<msn>.m4s`. */
  file: string;
  query: URLSearchParams;
  /** The session's query (`?sid=…&token=…`), carried into every URI of the playlist. */
  suffix: string;
  /** Counts bytes sent to the viewer's session. */
  count(bytes: number): void;
  /** The output's rewind window, seconds (0: the live window). */
  windowSeconds: number;
  /**
   * A ladder variant's siblings, as EXT-X-RENDITION-REPORT tells them (empty without a ladder); their URIs without
   * the session's query, which the playlist adds.
   */
  renditionReports: RenditionReport[];
}

/**
 * Serves a Low latency output from its stream's packager (docs/decisions.md, "LL-HLS"): the media playlist
 * (blocking reload with `_HLS_msn`/`_HLS_part`, delta updates with `_HLS_skip=YES`), the init segment, parts
 * (a preload-hinted one is held until it exists) and whole segments.
 */
export async function serveLowLatency(response: ServerResponse, asked: LowLatencyRequest): Promise<void> {
  const { packager, file, query } = asked;
  const closed = new AbortController();
  // Only a player gone before its answer ends a wait (an abort after every answer cost a DOMException each).
  response.once('close', () => {
    if (!response.writableFinished) closed.abort();
  });
  if (file === 'index.m3u8') {
    const blocking = blockingRequest(query);
    if ('error' in blocking) return text(response, 400, blocking.error);
    if (blocking.msn !== null) {
      const waited = await packager.waitFor(blocking.msn, blocking.part ?? undefined, BLOCK_MS, closed.signal);
      if (waited === 'too-far') return text(response, 400, 'The playlist asked for is more than two segments ahead');
      if (waited === 'timeout') return text(response, 503, 'The part asked for did not come in time');
    }
    const playlist = sessionPlaylist(asked, query.get('_HLS_skip') === 'YES');
    return sendBody(response, asked, Buffer.from(playlist), 'application/vnd.apple.mpegurl', 'no-store');
  }
  const parsed = parseLowLatencyFile(file);
  if (!parsed) return text(response, 404, 'No such part or segment');
  if (parsed.kind === 'init') return sendMedia(response, asked, packager.init(parsed.period));
  if (parsed.kind === 'segment') {
    // A segment older than the output's own window is not its viewers' (another output may rewind further). Parts
    // need no such check: only the live window's are kept, and every window holds it.
    const listed = packager.lists(parsed.msn, asked.windowSeconds);
    return sendMedia(response, asked, listed ? await packager.segment(parsed.msn) : null);
  }
  let part = packager.part(parsed.msn, parsed.index);
  if (!part) {
    // The part a playlist's EXT-X-PRELOAD-HINT names: answered the moment it exists.
    const waited = await packager.waitForPart(parsed.msn, parsed.index, BLOCK_MS, closed.signal);
    if (waited === 'timeout') return text(response, 503, 'The part asked for did not come in time');
    part = packager.part(parsed.msn, parsed.index);
  }
  return sendMedia(response, asked, part);
}

/** Where a session's query goes in a playlist rendered for every viewer (no URI holds a NUL). */
const SESSION = '\u0000';
/** Playlists kept rendered per packager: a few windows and kinds of update, each at its newest state. */
const RENDERED_KEPT = 16;
const rendered = new WeakMap<LowLatencyPackager, Map<string, { state: string; text: string }>>();

/**
 * The playlist a session asked for. Every viewer of a window gets the same one but for the session's query in its
 * URIs, so it is rendered once per packager state (with SESSION where the query goes) and each answer only puts the
 * query in: rendered per request, 2,000 whole-segment viewers of a Low output cost the node more than it had.
 */
function sessionPlaylist(asked: LowLatencyRequest, skip: boolean): string {
  const { packager, windowSeconds, renditionReports } = asked;
  const kind = [windowSeconds, skip, ...renditionReports.map((r) => `${r.uri} ${r.lastMsn} ${r.lastPart}`)].join('|');
  const state = packager.playlistState(windowSeconds);
  const kept = rendered.get(packager) ?? new Map<string, { state: string; text: string }>();
  rendered.set(packager, kept);
  let entry = kept.get(kind);
  if (entry?.state !== state) {
    const text = packager.playlist({
      skip,
      uri: (uri) => `${uri}${SESSION}`,
      windowSeconds,
      renditionReports: renditionReports.map((report) => ({ ...report, uri: `${report.uri}${SESSION}` })),
    });
    if (kept.size >= RENDERED_KEPT) kept.clear();
    entry = { state, text };
    kept.set(kind, entry);
  }
  return entry.text.split(SESSION).join(asked.suffix);
}

/** The blocking reload a playlist request asks for: `_HLS_msn` (and `_HLS_part`), or none; bad values refused. */
function blockingRequest(query: URLSearchParams): { msn: number | null; part: number | null } | { error: string } {
  const msn = query.get('_HLS_msn');
  const part = query.get('_HLS_part');
  if (msn === null) return part === null ? { msn: null, part: null } : { error: '_HLS_part needs _HLS_msn' };
  if (!DECIMAL.test(msn)) return { error: '_HLS_msn must be a media sequence number' };
  if (part !== null && !DECIMAL.test(part)) return { error: '_HLS_part must be a part index' };
  return { msn: Number(msn), part: part === null ? null : Number(part) };
}

function sendMedia(response: ServerResponse, asked: LowLatencyRequest, body: Buffer | null): void {
  if (!body) {
    text(response, 404, 'No such part or segment (it left the playlist)');
    return;
  }
  // A part or segment never changes: players and CDNs may keep it while it is in the playlist.
  sendBody(response, asked, body, 'video/mp4', 'max-age=60');
}

/** A playlist or media body, its bytes counted to the viewer's session (the Low latency and VOD handlers'). */
export function sendBody(
  response: ServerResponse,
  asked: Pick<LowLatencyRequest, 'count'>,
  body: Buffer,
  contentType: string,
  cacheControl: string,
): void {
  if (response.destroyed) return;
  asked.count(body.length);
  response.writeHead(200, {
    'content-type': contentType,
    'cache-control': cacheControl,
    'content-length': body.length,
  });
  response.end(body);
}
