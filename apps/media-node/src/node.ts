import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Node, NodeRefreshMode } from '@streamcloud/contract';
import { nodeControlKeyOf, nodeTokenHash } from '@streamcloud/contract/node-control-credential';
import { addressPolicy, createGuardedFetch, guardedAgents } from '@streamcloud/net-guard';
import { Assignments } from './assignments.js';
import { NodeClips } from './clips/clips.js';
import type { MediaPorts, NodeConfig } from './config.js';
import { ControlPlaneClient, Reporter } from './control-plane.js';
import type { FrontEndKind } from './front-ends/front-end.js';
import { FrontEnds } from './front-ends/front-ends.js';
import { hlsFrontEnd } from './front-ends/hls/hls.js';
import { controlApiFrontEnd } from './front-ends/http/control-api.js';
import { nodeMetadata } from './front-ends/http/metadata.js';
import { refreshNode } from './front-ends/http/refresh.js';
import { rtmpFrontEnd } from './front-ends/rtmp/rtmp.js';
import { rtspFrontEnd } from './front-ends/rtsp/rtsp.js';
import { srtFrontEnd } from './front-ends/srt/ingest.js';
import { srtPlayFrontEnd } from './front-ends/srt/playback.js';
import { missingTools } from './front-ends/tools.js';
import { whepFrontEnd } from './front-ends/webrtc/whep.js';
import { whipFrontEnd } from './front-ends/webrtc/whip.js';
import { CountryLookup } from './geo.js';
import { LowLatencyPackagers } from './ll-hls/packagers.js';
import { LoadReport } from './load-report.js';
import type { Logger } from './log.js';
import { type EdgePuller, edgePullerKind } from './pipelines/edge/puller.js';
import { fallbacksKind } from './pipelines/fallback/fallback.js';
import { FallbackPlayer } from './pipelines/fallback/player.js';
import { lowLatencyHlsKind } from './pipelines/low-latency-hls.js';
import type { NodeTools, PipelineReporter } from './pipelines/pipeline.js';
import { type PipelineKindOf, Pipelines } from './pipelines/pipelines.js';
import { Recordings } from './pipelines/recorder/recordings.js';
import { recorderKind } from './pipelines/recorder.js';
import { relaysKind } from './pipelines/relay/relay.js';
import { snapshotsKind } from './pipelines/snapshots.js';
import { transcoderKind } from './pipelines/transcoder/transcoder.js';
import { StreamDirectory } from './streams/directory.js';
import { StreamManager } from './streams/manager.js';
import type { LiveStream } from './streams/types.js';
import { UsageJournal } from './streams/usage-journal.js';
import { VodLibrary } from './vod/library.js';

/**
 * Every protocol the node speaks, in the order they start (the HTTP port first: nginx calls its hooks there; RTMP
 * before what relays into nginx or plays from it); they stop in reverse.
 */
const FRONT_ENDS: readonly FrontEndKind[] = [
  controlApiFrontEnd,
  rtmpFrontEnd,
  hlsFrontEnd,
  srtFrontEnd,
  srtPlayFrontEnd,
  rtspFrontEnd,
  whipFrontEnd,
  whepFrontEnd,
];

/**
 * Every kind of pipeline the node runs, each made from what the node offers (pipelines/pipelines.ts), in this
 * order: the order they hear a stream go live — the transcoder first, whose renditions LL-HLS, snapshots and relays
 * may read (each also waits for them). The edge puller is a source: it brings streams here for viewers.
 */
const PIPELINES: readonly PipelineKindOf[] = [
  edgePullerKind,
  transcoderKind,
  lowLatencyHlsKind,
  snapshotsKind,
  relaysKind,
  fallbacksKind,
  recorderKind,
];

/**
 * A media node, a coordinator: it makes the stream manager, the pipelines (pipelines/) and the front ends
 * (front-ends/: the control API and HLS, WHIP, WHEP on its HTTP port, RTMP through nginx-rtmp behind a
 * byte-counting proxy, SRT and RTSP through ffmpeg), starts them and stops them; it reports to the control
 * plane with its node token.
 */
export class MediaNode {
  readonly client: ControlPlaneClient;
  readonly reporter: Reporter;
  /** The usage not yet acknowledged by the control plane, on disk: billing survives a crash. */
  private readonly usageJournal: UsageJournal;
  readonly directory = new StreamDirectory();
  readonly manager: StreamManager;
  /** Every recording run of the node, from its push to its object in the storage (and across restarts). */
  readonly recordings: Recordings;
  /** Clips the control plane asks this node to cut from its streams' segments or recordings (issue 35). */
  readonly clips: NodeClips;
  /** Plays a stream's fallbacks into its own name when its push is gone. */
  readonly fallbacks: FallbackPlayer;
  /** As an edge: pulls streams ingested on other nodes while they have viewers here. */
  readonly edges: EdgePuller;
  /** The streams the control plane assigns this node, read and applied. */
  private readonly assignments: Assignments;
  private readonly load: LoadReport;
  /** The key the control plane signs its calls to this node with (from the node token: node-control-credential.ts). */
  private readonly controlKey: string;
  /** Internal pushes (SRT and WebRTC relays into nginx) and plays (WebRTC playback) carry this as `relay=`. */
  readonly relaySecret = randomBytes(18).toString('base64url');
  readonly frontEnds = new FrontEnds(FRONT_ENDS);
  private timers: NodeJS.Timeout[] = [];
  /** Who the control plane says this node is (read at start, and again by a refresh). */
  identity: Node | null = null;
  /** Where recordings are written until uploaded (RECORDINGS_DIR, else under the data folder). */
  private get recordingsDir(): string {
    return this.config.recordingsDir || join(this.config.dataDir, 'recordings');
  }
  /** Every kind of pipeline the node runs (PIPELINES). */
  readonly pipelines: Pipelines;
  /** The LL-HLS packagers of streams with a Low latency output: written by their pipeline, read by HLS viewers. */
  readonly lowLatency: LowLatencyPackagers;
  /** The VODs of ended sessions (vod/), from the rewind windows of the packagers. */
  private readonly vods: VodLibrary;
  readonly startedAt = Date.now();
  /** What could not start (missing tools): the node runs without it and says so in /metadata. */
  readonly problems: string[] = [];
  port = 0;
  /** The media ports told to the control plane: those of the front ends that run (0: off). */
  ports: MediaPorts = { rtmp: 0, srt: 0, rtsp: 0, srtPlayback: 0 };

  constructor(
    readonly config: NodeConfig,
    private readonly log: Logger,
  ) {
    this.client = new ControlPlaneClient(config.controlPlaneUrl, config.nodeToken);
    this.controlKey = nodeControlKeyOf(nodeTokenHash(config.nodeToken));
    this.usageJournal = new UsageJournal(
      join(config.dataDir, 'usage', 'journal.json'),
      () => this.manager.usage.pendingUsage(),
      log,
    );
    this.reporter = new Reporter(this.client, log, this.usageJournal);
    const countries = new CountryLookup(config.geoOverrides, (message) => log.error(message));
    this.reporter.onReconnected = () => this.manager.restate();
    this.manager = new StreamManager({
      directory: this.directory,
      reporter: this.reporter,
      log,
      hlsDir: this.tools.hlsDir,
      ffprobe: config.ffprobe,
      reconnectGraceMs: config.reconnectGraceMs,
      refreshDirectory: () => this.assignments.refreshNow(),
      claimIngress: (name) => this.assignments.claimIngress(name),
      countryOf: (address) => countries.countryOf(address),
      readSigning: (accountId) => this.client.playbackSigning(accountId),
    });
    this.assignments = new Assignments({
      client: this.client,
      reporter: this.reporter,
      directory: this.directory,
      manager: this.manager,
      log,
    });
    this.lowLatency = new LowLatencyPackagers(this.manager.events, {
      dataDir: config.dataDir,
      dvrMaxBytes: config.dvrMaxBytes,
      ffmpeg: config.ffmpeg,
      remux: config.llHlsRemux,
    });
    this.vods = new VodLibrary({
      dir: join(config.dataDir, 'vod'),
      budget: this.lowLatency.disk,
      send: (report) => this.reporter.send(report),
      log,
    });
    // A stream's VOD is its ingest node's (docs/decisions.md, "Live rewind on edges"): an edge's window of it goes.
    this.lowLatency.onSessionEnd = (streamId, store, storyboard) => {
      if (!this.directory.byId(streamId)?.origin) void this.vods.keep(streamId, store, storyboard);
    };
    // Fallback sources and storage endpoints are users' settings: private and loopback addresses only when
    // the operator allows them.
    const outbound = addressPolicy({ allowPrivate: config.allowPrivateNetworks });
    const outboundAgents = guardedAgents(outbound);
    this.fallbacks = new FallbackPlayer({
      manager: this.manager,
      tools: this.tools,
      sources: {
        ffprobe: config.ffprobe,
        fetch: createGuardedFetch(outboundAgents),
        agents: outboundAgents,
        policy: outbound,
        dir: join(config.dataDir, 'fallbacks'),
      },
      send: (report) => this.reporter.send(report),
      message: (streamId, level, text) => this.manager.state(streamId, { message: { level, text } }),
      serves: (streamId) => this.directory.all().some((assigned) => assigned.id === streamId),
      keptCopyMaxIdleMs: config.fallbackCopyMaxIdleMs,
      log,
    });
    this.manager.fallbacks = this.fallbacks;
    this.recordings = new Recordings({
      client: this.client,
      reporter: this.reporter,
      assignedStreams: () => this.directory.all(),
      tools: this.tools,
      agents: outboundAgents,
      log,
      dir: this.recordingsDir,
      from: () => `node ${this.identity?.name ?? config.publicHostname}`,
    });
    this.manager.events.subscribe(this.recordings);
    // After the player and the recordings, which listen to the stream events before the kinds built on them.
    this.pipelines = new Pipelines(
      PIPELINES,
      {
        config,
        client: this.client,
        events: this.manager.events,
        lowLatency: this.lowLatency,
        fallbacks: this.fallbacks,
        recordings: this.recordings,
        live: (streamId) => this.manager.push(streamId) !== undefined,
        send: (report) => this.reporter.send(report),
      },
      {
        live: {
          log,
          tools: this.tools,
          reporterFor: (stream) => this.pipelineReporter(stream),
          meter: this.manager.usage.meter.bind(this.manager.usage),
        },
        source: {
          streams: this.manager,
          directory: this.directory,
          tools: this.tools,
          log,
          meter: (traffic) => this.manager.usage.meter(traffic, 'internode'),
        },
        admission: this.manager.admission,
      },
    );
    this.edges = this.pipelines.source(edgePullerKind);
    this.clips = new NodeClips({
      client: this.client,
      send: (report) => this.reporter.send(report),
      packagerOf: (streamId) => this.lowLatency.of(streamId) ?? this.lowLatency.variants(streamId)[0]?.packager ?? null,
      ffmpeg: config.ffmpeg,
      ffprobe: config.ffprobe,
      agents: outboundAgents,
      dir: join(config.dataDir, 'clips'),
      from: () => `node ${this.identity?.name ?? config.publicHostname}`,
      log,
    });
    this.load = new LoadReport({
      manager: this.manager,
      reporter: this.reporter,
      folders: [
        { what: 'data', path: config.dataDir },
        { what: 'recordings', path: this.recordingsDir },
      ],
      uploadBacklog: () => this.recordings.uploadBacklog(),
    });
  }

  /** What pipelines use of the node: its tools, its HLS directory and internal RTMP URLs. */
  private get tools(): NodeTools {
    return {
      ffmpeg: this.config.ffmpeg,
      ffprobe: this.config.ffprobe,
      dataDir: this.config.dataDir,
      font: this.config.font,
      hlsDir: `${this.config.dataDir}/hls`,
      rtmpUrl: (name) =>
        `rtmp://127.0.0.1:${this.frontEnds.get(rtmpFrontEnd)?.internalPort ?? 0}/live/${name}?relay=${this.relaySecret}`,
    };
  }

  /** A pipeline's reports about its stream: status messages and node reports, through the one reporter. */
  private pipelineReporter(stream: LiveStream): PipelineReporter {
    return {
      message: (level, text) => this.manager.state(stream.assigned.id, { message: { level, text } }),
      send: (report) => this.reporter.send(report),
    };
  }

  async start(): Promise<void> {
    const { config, log } = this;
    this.identity = await this.client.whoami();
    log.info(`node token accepted: this is node "${this.identity.name}" (${this.identity.id})`);
    // Usage a previous life of the node counted and did not see acknowledged is sent (again) first.
    const recovered = await this.usageJournal.recover();
    for (const report of recovered) this.reporter.resend(report);
    if (recovered.length > 0) log.info(`sending ${recovered.length} usage reports left by the previous run`);
    this.usageJournal.start();

    const missing = missingTools(config);
    this.problems.push(...missing.values());
    await this.frontEnds.start(
      {
        config,
        log,
        manager: this.manager,
        directory: this.directory,
        fallbacks: this.fallbacks,
        edges: this.edges,
        lowLatency: this.lowLatency,
        vods: this.vods,
        relaySecret: this.relaySecret,
        rtmpUrl: this.tools.rtmpUrl,
        controlKey: this.controlKey,
        control: { metadata: () => this.metadata(), refresh: (mode) => this.refresh(mode) },
      },
      missing,
    );
    this.port = this.frontEnds.portOf('http');
    // RTSP's configured port is told even when RTSP does not run here: the node has always done so.
    this.ports = {
      rtmp: this.frontEnds.portOf('rtmp'),
      srt: this.frontEnds.portOf('srt'),
      rtsp: this.frontEnds.portOf('rtsp') || config.mediaPorts.rtsp,
      srtPlayback: this.frontEnds.portOf('srtPlayback'),
    };
    for (const problem of this.problems) log.error(`media disabled: ${problem}`);

    await this.client
      .setMediaPorts(this.ports)
      .catch((error: unknown) => log.error(`could not tell the control plane the media ports: ${String(error)}`));
    await this.poll();
    await this.recordings.start();
    await mkdir(join(config.dataDir, 'clips'), { recursive: true });
    this.clips.start();
    this.manager.resync();
    this.sendLoad();
    this.timers.push(
      setInterval(() => void this.poll(), config.pollIntervalMs),
      setInterval(() => this.sendLoad(), config.reportIntervalMs),
      // Signed sessions whose viewing time (maxSessionSeconds) is over end within a second.
      setInterval(() => this.manager.sweepSigned(), 1000),
    );
    for (const timer of this.timers) timer.unref();
    log.info(
      `listening: control API and HLS/WHIP/WHEP on ${config.bindHost}:${this.port}, RTMP ${this.ports.rtmp || 'off'}, SRT ${this.ports.srt || 'off'} (playback ${this.ports.srtPlayback || 'off'})`,
    );
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.clips.stop();
    this.vods.close();
    // Files being recorded are closed first (the journal keeps them for the next start), then pushes end.
    await this.recordings.stop();
    // Pulled streams end before the manager lets go of the rest, the fallbacks after it (a push gone at shutdown
    // must not be taken over), then every job of the streams that ended.
    await this.pipelines.stopSources();
    this.manager.shutdown();
    await this.fallbacks.stopAll();
    await this.pipelines.stopJobs();
    await this.reporter.flushed();
    // What the control plane did not acknowledge stays in the journal for the next start.
    await this.usageJournal.stop();
    this.reporter.close();
    await this.frontEnds.stop();
  }

  /** Reads the assigned streams and lets the manager act on Stop and cleared sessions. */
  poll(): Promise<void> {
    return this.assignments.poll();
  }

  sendLoad(): void {
    this.load.send();
  }

  metadata(): Record<string, unknown> {
    return nodeMetadata(this);
  }

  /** The twelve refresh modes, as far as they apply to this node (docs/decisions.md, '## Media node'). */
  refresh(mode: NodeRefreshMode): Promise<Record<string, unknown>> {
    return refreshNode(this, mode);
  }
}
