import type { IncomingMessage, ServerResponse } from 'node:http';
import { text } from '../../http-answer.js';
import type { LowLatencyPackagers } from '../../ll-hls/packagers.js';
import { serveLowLatency } from '../../ll-hls/serve.js';
import { poll } from '../../streams/fragments.js';
import { PLAYLIST_POLL_MS, PLAYLIST_WAIT_MS } from './playlists.js';
import type { HlsViewer } from './sessions.js';

/** A request of a Low latency output, as its stream's packagers answer it. */
export interface LowLatencyAsk {
  /** A ladder's variant (its rendition key), or null. */
  key: string | null;
  file: string;
  query: URLSearchParams;
  suffix: string;
  viewer: HlsViewer;
  /** The output's rewind window, seconds (0: the live window). */
  windowSeconds: number;
}

/**
 * A Low latency output: from its stream's packager, once it has one (a stream that just went live, or an
 * output just made Low latency, waits for it as a Standard playlist waits for its first fragment). `count`
 * counts the bytes sent to the viewer's session.
 */
export async function serveLowLatencyOutput(
  request: IncomingMessage,
  response: ServerResponse,
  lowLatency: LowLatencyPackagers,
  streamId: string,
  asked: LowLatencyAsk,
  count: (bytes: number) => void,
): Promise<void> {
  const deadline = Date.now() + PLAYLIST_WAIT_MS;
  // A playlist of parts only (a packaging that just started) is nothing to a player that does not know LL-HLS
  // (ffmpeg finds no segment in it, and no stream): a playlist asked without a blocking reload, as a player's
  // first, waits for a complete segment too — unless there is none to wait for (the push ended meanwhile).
  const firstLoad = asked.file === 'index.m3u8' && !asked.query.has('_HLS_msn');
  const withParts = () => {
    const found = lowLatency.of(streamId, asked.key);
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
    .variants(streamId)
    .filter((variant) => variant.key !== asked.key)
    .flatMap(({ key, packager: sibling }) => {
      const last = sibling.lastPart();
      return last ? [{ uri: `../${key}/index.m3u8`, lastMsn: last.msn, lastPart: last.part }] : [];
    });
  return serveLowLatency(response, {
    packager,
    renditionReports,
    ...asked,
    count,
  });
}
