import { text } from '../http-answer.js';
import type { FrontEndContext, FrontEndKind, FrontEndsView, PortName, StartedFrontEnd, Tool } from './front-end.js';
import type { RouteName } from './http/routes.js';
import type { RouteHandler } from './http/server.js';

interface Running {
  kind: FrontEndKind;
  started: StartedFrontEnd<unknown>;
}

/**
 * The node's front ends: started in the order of their list (the HTTP port first: nginx calls its hooks there),
 * skipping a kind whose tools the node lacks, and stopped in reverse.
 */
export class FrontEnds implements FrontEndsView {
  private readonly running: Running[] = [];

  constructor(private readonly kinds: readonly FrontEndKind[]) {}

  /** Starts every kind whose tools are here (`missing`: the tools the node lacks). */
  async start(context: Omit<FrontEndContext, 'frontEnds'>, missing: ReadonlyMap<Tool, string>): Promise<void> {
    for (const kind of this.kinds) {
      if (kind.needs.some((tool) => missing.has(tool))) continue;
      this.running.push({ kind, started: await kind.start({ ...context, frontEnds: this }) });
    }
  }

  async stop(): Promise<void> {
    for (const { started } of this.running.splice(0).reverse()) await started.stop();
  }

  /** The server of a kind, when it runs. */
  get<S>(kind: FrontEndKind<S>): S | null {
    const found = this.running.find((each) => each.kind === kind);
    return found ? (found.started.server as S) : null;
  }

  /** The port a front end listens on; 0 when none that owns it runs. */
  portOf(name: PortName): number {
    return this.running.find((each) => each.kind.port === name)?.started.port ?? 0;
  }

  /**
   * What answers an HTTP route: the handler of the running front end that owns it, else what its kind answers
   * while it does not run (a node without ffmpeg has no WHIP: 503 and why).
   */
  route(name: RouteName): RouteHandler {
    const handler = this.running.find((each) => each.started.routes?.[name])?.started.routes?.[name];
    if (handler) return handler;
    const unavailable = this.kinds.find((kind) => kind.routes?.[name])?.routes?.[name];
    return async (_request, response) =>
      text(response, unavailable?.status ?? 404, unavailable?.message ?? 'Not found');
  }
}
