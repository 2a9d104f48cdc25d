import type { FrontEndContext, FrontEndKind } from '../front-end.js';
import type { PeerSession, WebRtcEndpoint } from './endpoint.js';

/**
 * A WebRTC front end (WHIP, WHEP): one path of the node's HTTP port, named as the kind, answered by an endpoint
 * that reaches nginx-rtmp through ffmpeg, and closed with the node; on a node without them the path answers 503
 * with `unavailable`.
 */
export function webRtcFrontEnd<E extends WebRtcEndpoint<PeerSession, unknown>>(
  name: 'whip' | 'whep',
  unavailable: string,
  create: (context: FrontEndContext) => E,
): FrontEndKind<E> {
  return {
    name,
    needs: ['nginx', 'ffmpeg'],
    routes: { [name]: { status: 503, message: unavailable } },
    async start(context) {
      const endpoint = create(context);
      return { server: endpoint, routes: { [name]: endpoint.route }, stop: () => endpoint.close() };
    },
  };
}
