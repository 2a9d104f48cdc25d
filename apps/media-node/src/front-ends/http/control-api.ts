import { NodeRefreshMode } from '@streamcloud/contract';
import { text } from '../../http-answer.js';
import type { FrontEndKind } from '../front-end.js';
import type { RouteName } from './routes.js';
import { json, NodeHttpServer, type RouteHandler } from './server.js';

/**
 * The node's HTTP port, first of the front ends (nginx calls its hooks there): the control API (the control
 * plane's only: /metadata, /refresh) and the routes of the front ends started after it (HLS, WHIP, WHEP, nginx's
 * hooks), each answered by its front end.
 */
export const controlApiFrontEnd: FrontEndKind<NodeHttpServer> = {
  name: 'control-api',
  needs: [],
  port: 'http',
  async start({ config, controlKey, control, frontEnds, log }) {
    const routes: Partial<Record<RouteName, RouteHandler>> = {
      metadata: async (_request, response) => json(response, 200, control.metadata()),
      refresh: async (_request, response, { body }) => {
        let mode: NodeRefreshMode;
        try {
          mode = NodeRefreshMode.parse((JSON.parse(body.toString() || '{}') as { mode?: unknown }).mode);
        } catch {
          return text(response, 400, `mode must be one of ${NodeRefreshMode.options.join(', ')}`);
        }
        return json(response, 200, { mode, ...(await control.refresh(mode)) });
      },
    };
    // Its own routes answer from the first request on; the others once their front end runs.
    const server = new NodeHttpServer(controlKey, (name) => routes[name] ?? frontEnds.route(name), log);
    return { server, port: await server.listen(config.port, config.bindHost), routes, stop: () => server.close() };
  },
};
