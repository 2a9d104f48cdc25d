import type { NodeConfig } from '../config.js';
import type { ControlPlaneClient, ReportBody } from '../control-plane.js';
import type { LowLatencyPackagers } from '../ll-hls/packagers.js';
import type { StreamEvents } from '../streams/events.js';
import type { FallbackPlayer } from './fallback/player.js';
import { LivePipelines, type PipelineHost, startSource } from './host.js';
import type { Pipeline, PipelineKind, SourceContext, SourceKind, StreamSource } from './pipeline.js';
import type { Recordings } from './recorder/recordings.js';

/**
 * What the node offers its pipeline kinds to be made from. A kind's factory takes the part it depends on (its
 * parameter's type says which), so the node's list type-checks every kind against what the node has.
 */
export interface PipelineOffers {
  config: NodeConfig;
  client: ControlPlaneClient;
  /** The node's stream events: a kind may listen beyond its pipelines (relays of streams that are not live). */
  events: StreamEvents;
  lowLatency: LowLatencyPackagers;
  /** Plays a stream's fallbacks into its own name when its push is gone. */
  fallbacks: FallbackPlayer;
  /** Every recording run of the node. */
  recordings: Recordings;
  /** Whether a stream's push is live here now. */
  live(streamId: string): boolean;
  /** Sends a node report. */
  send(report: ReportBody): void;
}

/** An entry of the node's list of pipeline kinds: a job on its live streams, or a source of streams (the edge puller). */
export type PipelineKindOf = (offers: PipelineOffers) => PipelineKind<unknown> | SourceKind;

/** Where the node's pipelines plug in: their hosts, and admission (which asks a source for a stream not live here). */
export interface PipelineHosts {
  live: PipelineHost;
  source: SourceContext;
  admission: { pull: StreamSource['pull'] | null };
}

/**
 * The node's pipelines: every kind of its list made from what the node offers, in the list's order — the order
 * they subscribe to the stream events, so the order in which a stream going live reaches them. A job kind runs for
 * every live stream (`LivePipelines`); a source kind is made once and plugged into admission (`startSource`).
 */
export class Pipelines {
  private readonly jobs: LivePipelines<unknown>[] = [];
  private readonly sources = new Map<PipelineKindOf, StreamSource>();

  constructor(kinds: readonly PipelineKindOf[], offers: PipelineOffers, hosts: PipelineHosts) {
    for (const kindOf of kinds) {
      const kind = kindOf(offers);
      if ('part' in kind) this.jobs.push(new LivePipelines(kind, offers.events, hosts.live));
      else this.sources.set(kindOf, startSource(kind, hosts.source, hosts.admission));
    }
  }

  /** The source a kind of the list made (the edge puller). */
  source<S extends StreamSource>(kindOf: (offers: PipelineOffers) => SourceKind<S>): S {
    const source = this.sources.get(kindOf);
    if (!source) throw new Error("a source kind not in the node's list of pipeline kinds");
    return source as S;
  }

  /** The pipelines running for a stream, with their kinds' names (the node's /metadata). */
  running(streamId: string): Array<[kind: string, pipeline: Pipeline<unknown>]> {
    return this.jobs.flatMap((jobs): Array<[string, Pipeline<unknown>]> => {
      const pipeline = jobs.of(streamId);
      return pipeline ? [[jobs.name, pipeline]] : [];
    });
  }

  /** The node stops: every stream a source brought here ends. */
  async stopSources(): Promise<void> {
    await Promise.all([...this.sources.values()].map((source) => source.stopAll()));
  }

  /** The node stops: every job's pipelines stop, then what each kind keeps between pushes. */
  async stopJobs(): Promise<void> {
    await Promise.all(this.jobs.map((jobs) => jobs.stopAll()));
  }
}
