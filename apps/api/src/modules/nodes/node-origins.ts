import { httpBase } from '../streams/connections.js';

/** How long the node list read for the console's CSP is kept (and so how soon a new node's origin is in it). */
export const NODE_ORIGINS_MAX_AGE_MS = 5000;

/** An origin that may go in a CSP source list as it is (no spaces, quotes, semicolons or commas). */
const PLAIN_ORIGIN = /^https?:\/\/[A-Za-z0-9.[\]:-]+$/;

type NodeAddress = { protocol: string; hostname: string; port: number };

/**
 * The origins of the media nodes' control APIs, where the console's preview and studio talk WHEP, WHIP and
 * HLS: the console's `connect-src`. Read from the database at most every NODE_ORIGINS_MAX_AGE_MS (one read
 * at a time) and after a change of nodes made through this process (invalidate), so a node added, moved or
 * removed through another API process (or by the autoscaler) counts within that time; a failed read keeps
 * the last list.
 */
export class NodeOrigins {
  private cached: { origins: string[]; at: number } | null = null;
  private reading: Promise<string[]> | null = null;

  constructor(
    private readonly readNodes: () => Promise<NodeAddress[]>,
    private readonly maxAgeMs = NODE_ORIGINS_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The next read goes to the database (a node was created, changed or removed). */
  invalidate(): void {
    this.cached = null;
  }

  current(): Promise<string[]> {
    if (this.cached && this.now() - this.cached.at < this.maxAgeMs) return Promise.resolve(this.cached.origins);
    this.reading ??= this.read().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async read(): Promise<string[]> {
    try {
      const nodes = await this.readNodes();
      const origins = [...new Set(nodes.map(httpBase))].filter((origin) => PLAIN_ORIGIN.test(origin)).sort();
      this.cached = { origins, at: this.now() };
      return origins;
    } catch {
      return this.cached?.origins ?? [];
    }
  }
}
