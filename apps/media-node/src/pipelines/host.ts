import { type ConfigPart, NOTHING_CONFIGURED } from '@streamcloud/contract';
import type { Logger } from '../log.js';
import type { AssignedStream } from '../streams/directory.js';
import type { StreamEvents } from '../streams/events.js';
import type { LiveStream } from '../streams/types.js';
import type {
  NodeTools,
  Pipeline,
  PipelineContext,
  PipelineKind,
  PipelineReporter,
  SourceContext,
  SourceKind,
  StopReason,
  StreamSource,
} from './pipeline.js';

/** A configuration that could not be read is tried again this long after. */
const RELOAD_RETRY_MS = 3000;

interface Running<C> {
  stream: LiveStream;
  pipeline: Pipeline<C> | null;
  config: C | null;
  /** Every start, update and stop of the stream's pipeline runs in turn on this chain. */
  chain: Promise<void>;
  retry: NodeJS.Timeout | null;
  done: boolean;
}

/** What the host gives each pipeline it makes: the log, the node's tools, its stream's reporter, the meter. */
export interface PipelineHost {
  log: Logger;
  tools: NodeTools;
  reporterFor: (stream: LiveStream) => PipelineReporter;
  meter: PipelineContext['meter'];
}

/**
 * Runs one kind of pipeline for every live stream that has a configuration for it: subscribes to the
 * node's stream events, loads the configuration when a stream goes live (and when its version changes),
 * and starts, updates and stops the stream's pipeline accordingly. Pipelines never see the events.
 */
export class LivePipelines<C> {
  private readonly running = new Map<string, Running<C>>();

  constructor(
    private readonly kind: PipelineKind<C>,
    events: StreamEvents,
    private readonly o: PipelineHost,
  ) {
    events.subscribe({
      live: (stream) => this.live(stream),
      ended: (stream) => this.end(stream.assigned.id, stream, 'push ended'),
      configChanged: (assigned, parts) => this.changed(assigned, parts),
    });
  }

  get name(): string {
    return this.kind.name;
  }

  /** The pipeline of a live stream (for tests and /metadata). */
  of(streamId: string): Pipeline<C> | null {
    return this.running.get(streamId)?.pipeline ?? null;
  }

  /** Stops every pipeline (the node stops); resolves when they have stopped. */
  async stopAll(): Promise<void> {
    await Promise.all(
      [...this.running.values()].map((entry) => this.end(entry.stream.assigned.id, entry.stream, 'node stopping')),
    );
    await this.kind.shutdown?.();
  }

  private live(stream: LiveStream): void {
    // An edge's pulled stream runs no job (the ingest node runs them once for the stream) but its viewers' packaging.
    if (stream.pulledFrom && !this.kind.alsoOnEdges) return;
    const entry: Running<C> = {
      stream,
      pipeline: null,
      config: null,
      chain: Promise.resolve(),
      retry: null,
      done: false,
    };
    this.running.set(stream.assigned.id, entry);
    this.reload(entry);
  }

  private changed(assigned: AssignedStream, parts: ReadonlySet<ConfigPart>): void {
    const entry = this.running.get(assigned.id);
    // The stream as just read: its versions say what changed (an empty part is not read: whenNothing).
    if (entry && parts.has(this.kind.part)) this.reload(entry, assigned);
  }

  private end(streamId: string, stream: LiveStream, reason: StopReason): Promise<void> {
    const entry = this.running.get(streamId);
    if (!entry || entry.stream !== stream) return Promise.resolve();
    this.running.delete(streamId);
    entry.done = true;
    if (entry.retry) clearTimeout(entry.retry);
    return this.enqueue(entry, async () => {
      const { pipeline } = entry;
      entry.pipeline = null;
      await pipeline?.stop(reason);
    });
  }

  /** Reads the stream's configuration and brings its pipeline in line with it. */
  private reload(entry: Running<C>, assigned = entry.stream.assigned): void {
    void this.enqueue(entry, async () => {
      if (entry.done) return;
      let config: C | null;
      try {
        const known = whenNothingConfigured(this.kind, assigned);
        config = known !== undefined ? known : await this.kind.load(assigned);
      } catch (error) {
        this.o.log.error(
          `${this.kind.name} of ${entry.stream.assigned.name}: reading its configuration failed: ${String(error)}`,
        );
        entry.retry ??= setTimeout(() => {
          entry.retry = null;
          this.reload(entry, assigned);
        }, RELOAD_RETRY_MS);
        entry.retry.unref();
        return;
      }
      if (entry.done) return;
      if (config === null) {
        const { pipeline } = entry;
        entry.pipeline = null;
        entry.config = null;
        await pipeline?.stop('configuration removed');
        return;
      }
      if (entry.pipeline && entry.config !== null && this.same(entry.config, config)) return;
      entry.config = config;
      if (entry.pipeline) {
        await entry.pipeline.update(config);
        return;
      }
      const pipeline = this.kind.create({
        reporter: this.o.reporterFor(entry.stream),
        log: this.o.log,
        tools: this.o.tools,
        meter: this.o.meter,
      });
      entry.pipeline = pipeline;
      await pipeline.start(entry.stream, config);
    });
  }

  private same(a: C, b: C): boolean {
    return this.kind.same ? this.kind.same(a, b) : JSON.stringify(a) === JSON.stringify(b);
  }

  private enqueue(entry: Running<C>, step: () => Promise<void>): Promise<void> {
    entry.chain = entry.chain.then(step).catch((error: unknown) => {
      this.o.log.error(
        `${this.kind.name} of ${entry.stream.assigned.name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    });
    return entry.chain;
  }
}

/**
 * The host's rule for a stream whose `part` holds nothing (its version is NOTHING_CONFIGURED): what the kind's
 * `whenNothing` says, without a read — null for `'skip'`, else its configuration; undefined when `load` decides
 * (something is configured, or the kind has no `whenNothing`).
 */
export function whenNothingConfigured<C>(kind: PipelineKind<C>, assigned: AssignedStream): C | null | undefined {
  if (kind.whenNothing === undefined || assigned.versions[kind.part] !== NOTHING_CONFIGURED) return undefined;
  return kind.whenNothing === 'skip' ? null : kind.whenNothing.config;
}

/**
 * Makes a source kind's source for the node (the edge puller) and plugs it into admission: a viewer's stream that is
 * not live here is asked of it. Answers the source (the node stops it with `stopAll`).
 */
export function startSource<S extends StreamSource>(
  kind: SourceKind<S>,
  context: SourceContext,
  admission: { pull: StreamSource['pull'] | null },
): S {
  const source = kind.create(context);
  admission.pull = (assigned) => source.pull(assigned);
  return source;
}
