import type { ConfigPart, StatusMessage } from '@streamcloud/contract';
import type { ReportBody } from '../control-plane.js';
import type { Logger } from '../log.js';
import type { AssignedStream, StreamDirectory } from '../streams/directory.js';
import type { LiveStream, PublishHandle, PushProtocol, ViewerSession } from '../streams/types.js';
import type { OutgoingTraffic } from '../streams/usage.js';

/** Why a pipeline stops. */
export type StopReason = 'push ended' | 'configuration removed' | 'node stopping' | 'gave up';

/**
 * One job the node runs for a live stream (transcoder, snapshots, LL-HLS packager, recorder, relay, fallback
 * player). A pipeline that brings a stream to the node instead (the edge puller) is a `SourceKind`, below. The host starts it when its stream goes live and it has a configuration,
 * hands it every new configuration, and stops it with the push (or when its configuration is removed).
 * `stop` must end every process and timer the pipeline started; `update` may restart what it runs.
 */
export interface Pipeline<C> {
  start(stream: LiveStream, config: C): Promise<void> | void;
  update(config: C): Promise<void> | void;
  stop(reason: StopReason): Promise<void> | void;
  /** What it is doing, for the node's /metadata (e.g. the transcoder's speed). */
  describe?(): Record<string, unknown>;
}

/** How a pipeline tells the control plane about itself: all its reports go through here. */
export interface PipelineReporter {
  /** A status message on the stream (the dashboard's list), e.g. 'Transcoder failed: …'. */
  message(level: StatusMessage['level'], text: string): void;
  /** Any other node report (recording-state, relay-state, fallback-state, tracks …). */
  send(report: ReportBody): void;
}

/** What a pipeline gets from the node: its stream's reporter, the log, and the node's tools and URLs. */
export interface PipelineContext {
  reporter: PipelineReporter;
  log: Logger;
  tools: NodeTools;
  /** Bills what the pipeline sends out for its stream (a relay's bytes) as the stream's outgoing usage. */
  meter(traffic: OutgoingTraffic): () => void;
}

export interface NodeTools {
  ffmpeg: string;
  ffprobe: string;
  /** The node's data directory: a pipeline keeps its files under `<dataDir>/<kind>/<stream id>/`. */
  dataDir: string;
  /** The monospace font for text drawn into pictures. */
  font: string;
  /** Where nginx-rtmp writes the HLS fragments of a stream name: `<hlsDir>/<name>/`. */
  hlsDir: string;
  /** An internal RTMP URL of nginx-rtmp for the node's own players and publishers (with the relay secret). */
  rtmpUrl(name: string): string;
}

/**
 * A kind of pipeline: which part of a stream's configuration it runs from (its version in
 * `GET /node/inputs`), how it reads it, and how it makes a pipeline. `load` answers null when the stream
 * needs no pipeline of this kind (nothing configured); it is called when a stream goes live and again
 * whenever the part's version changes while it is live — unless the version says the part is empty and the kind
 * knows what that means (`whenNothing`).
 */
export interface PipelineKind<C> {
  /** For logs and messages: 'transcoder', 'snapshots', 'recorder' … */
  readonly name: string;
  readonly part: ConfigPart;
  load(assigned: AssignedStream): Promise<C | null>;
  /**
   * What a stream whose `part` holds nothing (its version is the contract's NOTHING_CONFIGURED) needs of this
   * kind, decided by the host without calling `load`, so a wave of new streams going live costs no read of a part
   * most of them leave empty: `'skip'`, no pipeline; `{ config }`, a pipeline with that configuration (the
   * fallbacks' player is told a stream has none). Absent: `load` always decides.
   */
  readonly whenNothing?: 'skip' | { readonly config: C };
  create(context: PipelineContext): Pipeline<C>;
  /**
   * Whether it also runs for a stream an edge pulls (its viewers' packaging); by default a stream's jobs run once,
   * on its ingest node.
   */
  readonly alsoOnEdges?: boolean;
  /** Whether two configurations are the same (no update needed); JSON equality when absent. */
  same?(a: C, b: C): boolean;
  /** The node stops, after every pipeline of the kind stopped: what the kind keeps between pushes ends. */
  shutdown?(): Promise<void> | void;
}

/**
 * A kind of pipeline that brings streams to this node rather than running on one of its live streams: the edge
 * puller (pipelines/edge). Made once for the node by `startSource` (host.ts), which makes it what admission asks
 * for a viewer's stream ingested on another node; it stops with the node.
 */
export interface SourceKind<S extends StreamSource = StreamSource> {
  /** For logs: 'edge puller'. */
  readonly name: string;
  create(context: SourceContext): S;
}

/** A running source kind. */
export interface StreamSource {
  /** The stream `assigned`, ingested on another node, brought here for a viewer; undefined when it cannot be. */
  pull(assigned: AssignedStream): Promise<LiveStream | undefined>;
  /** The node stops: every stream it brought here ends. */
  stopAll(): Promise<void>;
}

/** What a source kind gets from the node: the node's streams (the stream manager's part for them), and its tools. */
export interface SourceContext {
  streams: PulledStreams;
  directory: Pick<StreamDirectory, 'all' | 'byId'>;
  tools: Pick<NodeTools, 'ffmpeg' | 'rtmpUrl'>;
  log: Logger;
  /** Bills the bytes it brings from another node as the stream's internode usage; answers the call that ends it. */
  meter(traffic: OutgoingTraffic): () => void;
}

/** What a source may do with the node's streams (the stream manager does it): start, look up and end them. */
export interface PulledStreams {
  /** The stream's push going on here, if any. */
  push(streamId: string): LiveStream | undefined;
  /** The stream as pulled from node `origin` for this node's viewers (nothing reported: its ingest node does). */
  startPulled(assigned: AssignedStream, origin: string, handle: PublishHandle): LiveStream | null;
  /** The stream as a push of this node (an Internode stream's content). */
  startPush(assigned: AssignedStream, protocol: PushProtocol, handle: PublishHandle): LiveStream;
  endPush(stream: LiveStream, failure?: string | null, options?: { byOrigin?: boolean }): void;
  /** Who watches what here. */
  readonly viewers: { all(): ViewerSession[] };
  /** Whether a pull still brings the stream here: while one does, the control plane showing it over does not end it. */
  pulledHere: (streamId: string) => boolean;
}
