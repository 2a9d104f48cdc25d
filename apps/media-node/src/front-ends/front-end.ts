import type { NodeRefreshMode } from '@streamcloud/contract';
import type { MediaPorts, NodeConfig } from '../config.js';
import type { LowLatencyPackagers } from '../ll-hls/packagers.js';
import type { Logger } from '../log.js';
import type { EdgePuller } from '../pipelines/edge/puller.js';
import type { FallbackPlayer } from '../pipelines/fallback/player.js';
import type { StreamDirectory } from '../streams/directory.js';
import type { StreamManager } from '../streams/manager.js';
import type { VodLibrary } from '../vod/library.js';
import type { RouteName } from './http/routes.js';
import type { RouteHandler } from './http/server.js';

/** A program a front end runs: it does not start on a node without it (tools.ts). */
export type Tool = 'ffmpeg' | 'nginx';

/** A port a front end owns: the node's HTTP port, or one of the media ports it tells the control plane. */
export type PortName = 'http' | keyof MediaPorts;

/** What one of the HTTP routes of a front end answers while that front end does not run on the node. */
export interface Unavailable {
  status: number;
  message: string;
}

/** What the control API answers for the node (the node's metadata, its refresh modes). */
export interface NodeControl {
  metadata(): Record<string, unknown>;
  refresh(mode: NodeRefreshMode): Promise<Record<string, unknown>>;
}

/** What a front end gets from the node when it starts. */
export interface FrontEndContext {
  config: NodeConfig;
  log: Logger;
  manager: StreamManager;
  directory: StreamDirectory;
  fallbacks: FallbackPlayer;
  edges: EdgePuller;
  lowLatency: LowLatencyPackagers;
  vods: VodLibrary;
  /** The node's own pushes and plays of nginx-rtmp carry it as `relay=` (SRT/WebRTC relays, feeds, pulls). */
  relaySecret: string;
  /** An internal RTMP URL of nginx-rtmp for the node's own players and publishers (NodeTools.rtmpUrl). */
  rtmpUrl(name: string): string;
  /** The key the control plane signs its calls to this node with (node-control-credential.ts). */
  controlKey: string;
  control: NodeControl;
  /** The front ends started before this one (the HTTP port nginx calls its hooks on), and the routes of all. */
  frontEnds: FrontEndsView;
}

/** What a front end may read of the others: the ports they listen on, and who answers an HTTP route. */
export interface FrontEndsView {
  portOf(name: PortName): number;
  route(name: RouteName): RouteHandler;
}

/** A front end once started: its protocol's server, the port it listens on, its answers to its HTTP routes. */
export interface StartedFrontEnd<S> {
  server: S;
  port?: number;
  routes?: Partial<Record<RouteName, RouteHandler>>;
  /** Ends its listeners and sessions (the node stops). */
  stop(): Promise<void> | void;
}

/**
 * A protocol the node speaks to the outside (RTMP, SRT, RTSP, WHIP, WHEP, HLS, the control API), registered as
 * pipeline kinds are: the node starts every kind of its list in order, those whose tools it has, and stops them
 * in reverse. A kind owns its port and its HTTP routes; what a route answers while its kind does not run is the
 * kind's too.
 */
export interface FrontEndKind<S = unknown> {
  /** What it is called in docs and tests: 'rtmp', 'srt', 'srt-play', 'rtsp', 'whip', 'whep', 'hls', 'control-api'. */
  readonly name: string;
  readonly needs: readonly Tool[];
  readonly port?: PortName;
  readonly routes?: Partial<Record<RouteName, Unavailable>>;
  start(context: FrontEndContext): Promise<StartedFrontEnd<S>>;
}
