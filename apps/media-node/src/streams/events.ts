import type { ConfigPart } from '@streamcloud/contract';
import type { Logger } from '../log.js';
import type { AssignedStream } from './directory.js';
import type { LiveStream } from './types.js';

/**
 * What happens to the node's streams, for the parts that act on it (pipelines, viewers' front ends):
 * a push went live, a push ended (the stream may resume within the reconnect grace), and a part of an
 * stream's configuration changed (its version in `GET /node/inputs` moved). Listeners run in the order
 * they subscribed; one that throws is logged and the others still run.
 */
export interface StreamListener {
  live?(stream: LiveStream): void;
  ended?(stream: LiveStream): void;
  /** The reconnect grace of a stream ended without a new push: it is Idle (or Error) now. */
  gone?(streamId: string): void;
  configChanged?(assigned: AssignedStream, parts: ReadonlySet<ConfigPart>): void;
}

export class StreamEvents {
  private readonly listeners: StreamListener[] = [];

  constructor(private readonly log: Logger) {}

  subscribe(listener: StreamListener): void {
    this.listeners.push(listener);
  }

  live(stream: LiveStream): void {
    this.each((listener) => listener.live?.(stream));
  }

  ended(stream: LiveStream): void {
    this.each((listener) => listener.ended?.(stream));
  }

  gone(streamId: string): void {
    this.each((listener) => listener.gone?.(streamId));
  }

  configChanged(assigned: AssignedStream, parts: ReadonlySet<ConfigPart>): void {
    this.each((listener) => listener.configChanged?.(assigned, parts));
  }

  private each(call: (listener: StreamListener) => void): void {
    for (const listener of this.listeners) {
      try {
        call(listener);
      } catch (error) {
        this.log.error(
          `a stream listener failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      }
    }
  }
}
