import type { PlayInfo } from '@streamcloud/contract';
import { createBeacon } from '@/media/beacon';
import { playHls } from '@/media/hls-playback';
import { monitorPlayback } from '@/media/playback-monitor';
import { playWhep } from '@/media/whep-playback';
import type { Source } from './play-state';
import { mountPlayer } from './player-page';
import { listenForToken, tokenFromUrl } from './token-channel';
import './play.css';

/**
 * The embeddable player's entry (play.html, served at /play/{outputId}): plain DOM, none of the console's
 * React app, so that a WHEP page's first paint stays small; hls.js comes only when an HLS output plays.
 */

/**
 * The public read `GET /api/v1/play/{id}` (packages/contract play.ts, playRoutes.info). Called with fetch,
 * not the typed API client: the client validates with the contract's zod schemas, which alone would
 * weigh more than this whole page. The page is served at /play/{id}, the API beside it.
 */
async function fetchInfo(outputId: string): Promise<PlayInfo | null> {
  const response = await fetch(new URL(`../api/v1/play/${encodeURIComponent(outputId)}`, location.href));
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`The server answered ${response.status}`);
  return (await response.json()) as PlayInfo;
}

const start = (source: Source, token: string, video: HTMLVideoElement, onFailure: (reason: string) => void) =>
  source.kind === 'whep'
    ? playWhep(source.url, token, video, undefined, onFailure)
    : playHls(source.url, token, video, onFailure, { lowLatency: source.lowLatency });

const root = document.getElementById('player');
const outputId = decodeURIComponent(location.pathname.split('/').filter(Boolean).at(-1) ?? '');
if (root) {
  const player = mountPlayer(root, {
    outputId,
    token: tokenFromUrl(location.search),
    fetchInfo,
    start,
    webrtc: typeof RTCPeerConnection !== 'undefined',
    // The viewer beacon (POST /api/v1/play/{id}/beacons), beside the public read.
    monitor: (session, video) =>
      monitorPlayback(
        video,
        createBeacon({
          url: new URL(`../api/v1/play/${encodeURIComponent(outputId)}/beacons`, location.href).href,
          session,
          player: 'embed',
        }),
      ),
  });
  listenForToken(window, (token) => player.setToken(token));
}
