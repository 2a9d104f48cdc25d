import { Agent, type ClientRequest, type ClientRequestArgs, type IncomingMessage, request } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressPolicy } from '@streamcloud/net-guard';
import { connectOutbound, type OutboundConnection } from './outbound.js';
import { asFailure, RelayFailure } from './target.js';

/** Bytes a destination may leave unaccepted before the relay gives up on it (it cannot keep up). */
const MAX_BACKLOG_BYTES = 64 * 1024 * 1024;
const USER_AGENT = 'Streamcloud-media-node DASH-IF-Ingest/1.1';
/** A segment's request that is not answered this long has failed. */
const SEGMENT_TIMEOUT_MS = 30_000;

/**
 * The HTTP connections of one ingest track, made through the relay's outbound connector (DNS, TLS with
 * a verified certificate) and counted on the wire. Keep-alive: one connection at a time, reused.
 */
class IngestAgent extends Agent {
  private readonly connections: OutboundConnection[] = [];

  constructor(
    readonly url: URL,
    private readonly policy: AddressPolicy,
  ) {
    super({ keepAlive: true, maxSockets: 1 });
    // Plain http.request serves https: URLs too: TLS is done by the connector.
    (this as unknown as { protocol: string }).protocol = url.protocol;
  }

  override createConnection(
    _options: ClientRequestArgs,
    callback?: (error: Error | null, socket: Duplex) => void,
  ): undefined {
    const tls = this.url.protocol === 'https:';
    const port = this.url.port ? Number(this.url.port) : tls ? 443 : 80;
    connectOutbound({ host: this.url.hostname.replace(/^\[|\]$/g, ''), port, tls }, this.policy).then(
      (connection) => {
        this.connections.push(connection);
        callback?.(null, connection.socket);
      },
      (error: unknown) => callback?.(asFailure(error), undefined as unknown as Duplex),
    );
    return undefined;
  }

  bytesOut(): number {
    return this.connections.reduce((sum, connection) => sum + connection.bytesOut(), 0);
  }

  bytesIn(): number {
    return this.connections.reduce((sum, connection) => sum + connection.bytesIn(), 0);
  }
}

/** What an HTTP answer or error means for the relay. */
function answerFailure(response: IncomingMessage, url: URL): RelayFailure | null {
  const status = response.statusCode ?? 0;
  if (status >= 200 && status < 300) return null;
  const what = `${url.origin}${url.pathname} answered ${status} ${response.statusMessage ?? ''}`.trim();
  return new RelayFailure(what, status === 401 || status === 403 ? 'fatal' : 'target');
}

/** One track's ingest: its objects go out in order; `end` sends the end of the track and waits for the answers. */
export interface TrackIngest {
  send(data: Buffer): void;
  end(): Promise<void>;
  abort(): void;
  bytesOut(): number;
  bytesIn(): number;
  /** Resolves with the first failure (never resolves when there is none). */
  readonly failed: Promise<RelayFailure>;
  /** Called once the destination accepted media (a segment answered, or the long request took data). */
  onAccepted: () => void;
}

abstract class BaseIngest implements TrackIngest {
  readonly agent: IngestAgent;
  readonly failed: Promise<RelayFailure>;
  onAccepted: () => void = () => undefined;
  protected failure: RelayFailure | null = null;
  private reject!: (failure: RelayFailure) => void;

  constructor(
    protected readonly url: URL,
    policy: AddressPolicy,
  ) {
    this.agent = new IngestAgent(url, policy);
    this.failed = new Promise((resolve) => {
      this.reject = resolve;
    });
  }

  abstract send(data: Buffer): void;
  abstract end(): Promise<void>;

  abort(): void {
    this.agent.destroy();
  }

  bytesOut(): number {
    return this.agent.bytesOut();
  }

  bytesIn(): number {
    return this.agent.bytesIn();
  }

  protected fail(error: unknown): void {
    if (this.failure) return;
    this.failure = asFailure(error);
    this.reject(this.failure);
    this.agent.destroy();
  }

  protected open(headers: Record<string, string>): ClientRequest {
    return request(this.url, {
      method: 'POST',
      agent: this.agent,
      headers: { 'user-agent': USER_AGENT, ...headers },
    });
  }
}

/**
 * DASH-IF Live Media Ingest, Interface-1: the CMAF header, then each CMAF segment, each in its own
 * request (one at a time, in order, on a kept-alive connection), the last one labelled `lmsg`.
 */
export class SegmentIngest extends BaseIngest {
  private queue: Promise<void> = Promise.resolve();
  private backlog = 0;

  send(data: Buffer): void {
    if (this.failure) return;
    this.backlog += data.length;
    if (this.backlog > MAX_BACKLOG_BYTES) {
      this.fail(new RelayFailure(`${this.url.origin} does not take the stream as fast as it comes`, 'target'));
      return;
    }
    this.queue = this.queue.then(() => this.post(data));
  }

  async end(): Promise<void> {
    await this.queue;
  }

  private post(data: Buffer): Promise<void> {
    if (this.failure) return Promise.resolve();
    return new Promise((resolve) => {
      const call = this.open({ 'content-type': 'video/mp4', 'content-length': String(data.length) });
      call.setTimeout(SEGMENT_TIMEOUT_MS, () =>
        call.destroy(new RelayFailure(`${this.url.origin} did not answer a segment within 30 s`, 'target')),
      );
      call.on('error', (error) => {
        this.fail(error);
        resolve();
      });
      call.on('response', (response) => {
        response.resume();
        response.on('end', () => {
          this.backlog -= data.length;
          const failure = answerFailure(response, this.url);
          if (failure) this.fail(failure);
          else this.onAccepted();
          resolve();
        });
      });
      call.end(data);
    });
  }
}

/**
 * A long-running request per track (Smooth Streaming ingest, as Unified Streaming takes it): one
 * chunked POST carrying the CMAF header and every segment as they come, ended by an empty `mfra` box
 * and the last chunk; the destination answers when it ends (early when it refuses).
 */
export class LongRunningIngest extends BaseIngest {
  private call: ClientRequest | null = null;
  private answered: Promise<void> = Promise.resolve();

  send(data: Buffer): void {
    if (this.failure) return;
    const first = !this.call;
    const call = this.call ?? this.start();
    // The destination takes the stream once the first bytes are through to it.
    call.write(data, first ? (error) => error || this.onAccepted() : undefined);
    if (call.writableLength > MAX_BACKLOG_BYTES)
      this.fail(new RelayFailure(`${this.url.origin} does not take the stream as fast as it comes`, 'target'));
  }

  async end(): Promise<void> {
    if (!this.call || this.failure) return;
    this.call.end();
    await this.answered;
  }

  private start(): ClientRequest {
    const call = this.open({ 'content-type': 'video/mp4', 'transfer-encoding': 'chunked' });
    this.call = call;
    this.answered = new Promise((resolve) => {
      call.on('error', (error) => {
        this.fail(error);
        resolve();
      });
      call.on('response', (response) => {
        response.resume();
        const failure = answerFailure(response, this.url);
        if (failure) this.fail(failure);
        response.on('end', () => resolve());
      });
    });
    return call;
  }
}
