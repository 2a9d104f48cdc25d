import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { ApiError } from '@streamcloud/api-client';
import { type Node, NodeRefreshMode } from '@streamcloud/contract';
import { nodeControlKeyOf, nodeTokenHash } from '@streamcloud/contract/node-control-credential';
import { addressPolicy, createGuardedFetch, guardedAgents } from '@streamcloud/net-guard';
import { NodeClips } from './clips/clips.js';
import type { NodeConfig } from './config.js';
import { ControlPlaneClient, Reporter } from './control-plane.js';
import { CpuMeter } from './cpu.js';
import { HlsServer } from './front-ends/hls/hls.js';
import type { RouteName } from './front-ends/http/routes.js';
import { json, NodeHttpServer, type RouteHandler, type RouteRequest, safeDecode } from './front-ends/http/server.js';
import { HLS_FRAGMENT_SECONDS, RtmpFrontEnd } from './front-ends/rtmp/rtmp.js';
import { RtspIngest } from './front-ends/rtsp/rtsp.js';
import { srtIngest } from './front-ends/srt/ingest.js';
import { srtPlayback } from './front-ends/srt/playback.js';
import type { SrtPort } from './front-ends/srt/port.js';
import { WhepPlayback } from './front-ends/webrtc/whep.js';
import { WhipIngest } from './front-ends/webrtc/whip.js';
import { CountryLookup } from './geo.js';
import { nodeHealth } from './health.js';
import { text } from './http-answer.js';
import { InputDirectory } from './inputs.js';
import { LowLatencyPackagers } from './ll-hls/packagers.js';
import type { Logger } from './log.js';
import { EdgePuller } from './pipelines/edge/puller.js';
import { fallbacksKind } from './pipelines/fallback/fallback.js';
import { FallbackPlayer } from './pipelines/fallback/player.js';
import { LivePipelines } from './pipelines/host.js';
import { lowLatencyHlsKind } from './pipelines/low-latency-hls.js';
import type { NodeTools, PipelineReporter } from './pipelines/pipeline.js';
import { Recordings } from './pipelines/recorder/recordings.js';
import { recorderKind } from './pipelines/recorder.js';
import { relayPolicies } from './pipelines/relay/outbound.js';
import { relaysKind } from './pipelines/relay/relay.js';
import { snapshotsKind } from './pipelines/snapshots.js';
import { transcoderKind } from './pipelines/transcoder/transcoder.js';
import { StreamManager } from './streams/manager.js';
import type { LiveStream } from './streams/types.js';
import { UsageJournal } from './streams/usage-journal.js';
import { VodLibrary } from './vod/library.js';

export const NODE_VERSION = '1.0.0';

/**
 * A media node: the control API (metadata, refresh: the control plane's only) and HLS, WHIP, WHEP on its port
 * (http-routes.ts), RTMP through nginx-rtmp
 * behind a byte-counting proxy, SRT through ffmpeg, WebRTC through werift; it reports to the control
 * plane with its node token.
 */
export class MediaNode {
  readonly client: ControlPlaneClient;
  readonly reporter: Reporter;
  /** The usage not yet acknowledged by the control plane, on disk: billing survives a crash. */
  private readonly usageJournal: UsageJournal;
  readonly directory = new InputDirectory();
  readonly manager: StreamManager;
  /** Every recording run of the node, from its push to its object in the storage (and across restarts). */
  readonly recordings: Recordings;
  /** Clips the control plane asks this node to cut from its streams' segments or recordings (issue 35). */
  readonly clips: NodeClips;
  /** Plays a stream's fallbacks into its own name when its push is gone. */
  readonly fallbacks: FallbackPlayer;
  /** As an edge: pulls streams ingested on other nodes while they have viewers here. */
  readonly edges: EdgePuller;
  /** The key the control plane signs its calls to this node with (from the node token: node-control-credential.ts). */
  private readonly controlKey: string;
  /** Internal pushes (SRT and WebRTC relays into nginx) and plays (WebRTC playback) carry this as `relay=`. */
  readonly relaySecret = randomBytes(18).toString('base64url');
  private rtmp: RtmpFrontEnd | null = null;
  private srt: SrtPort | null = null;
  private srtPlayback: SrtPort | null = null;
  private rtsp: RtspIngest | null = null;
  private whip: WhipIngest | null = null;
  private whep: WhepPlayback | null = null;
  private hls: HlsServer | null = null;
  private server: NodeHttpServer | null = null;
  private timers: NodeJS.Timeout[] = [];
  private identity: Node | null = null;
  private readonly cpu = new CpuMeter();
  /** Where recordings are written until uploaded (RECORDINGS_DIR, else under the data folder). */
  private get recordingsDir(): string {
    return this.config.recordingsDir || join(this.config.dataDir, 'recordings');
  }
  /** Every kind of pipeline the node runs for live streams. */
  private readonly pipelines: LivePipelines<unknown>[] = [];
  /** The LL-HLS packagers of streams with a Low latency output: written by their pipeline, read by HLS viewers. */
  private readonly lowLatency: LowLatencyPackagers;
  /** The VODs of ended sessions (vod/), from the rewind windows of the packagers. */
  private readonly vods: VodLibrary;
  private readonly startedAt = Date.now();
  /** What could not start (missing tools): the node runs without it and says so in /metadata. */
  readonly problems: string[] = [];
  port = 0;
  ports = { rtmp: 0, srt: 0, rtsp: 0, srtPlayback: 0 };

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
      refreshDirectory: () => this.refreshNow(),
      claimIngress: (name) => this.claimIngress(name),
      countryOf: (address) => countries.countryOf(address),
      readSigning: (accountId) => this.client.playbackSigning(accountId),
    });
    this.lowLatency = new LowLatencyPackagers(this.manager.events, {
      dataDir: config.dataDir,
      dvrMaxBytes: config.dvrMaxBytes,
    });
    this.edges = new EdgePuller(
      {
        manager: this.manager,
        directory: this.directory,
        tools: this.tools,
        log,
        idleMs: config.edgeIdleMs,
        lowLatency: this.lowLatency,
      },
      (traffic) => this.manager.usage.meter(traffic, 'internode'),
    );
    this.manager.admission.pull = (input) => this.edges.pull(input);
    const host = {
      log,
      tools: this.tools,
      reporterFor: (stream: LiveStream) => this.pipelineReporter(stream),
      meter: this.manager.usage.meter.bind(this.manager.usage),
    };
    this.vods = new VodLibrary({
      dir: join(config.dataDir, 'vod'),
      budget: this.lowLatency.disk,
      send: (report) => this.reporter.send(report),
      log,
    });
    this.lowLatency.onSessionEnd = (inputId, store) => void this.vods.keep(inputId, store);
    this.pipelines.push(
      new LivePipelines(transcoderKind(this.client), this.manager.events, host),
      new LivePipelines(lowLatencyHlsKind(this.lowLatency), this.manager.events, host),
      new LivePipelines(snapshotsKind(this.client), this.manager.events, host),
      new LivePipelines(
        relaysKind({
          client: this.client,
          events: this.manager.events,
          live: (inputId) => this.manager.push(inputId) !== undefined,
          send: (report) => this.reporter.send(report),
          secretsDir: join(config.dataDir, 'relays'),
          policies: relayPolicies({ allowPrivate: config.allowPrivateNetworks }),
          failingForMs: config.relayGiveUpMs,
        }),
        this.manager.events,
        host,
      ),
    );
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
      message: (inputId, level, text) => this.manager.state(inputId, { message: { level, text } }),
      serves: (inputId) => this.directory.all().some((input) => input.id === inputId),
      keptCopyMaxIdleMs: config.fallbackCopyMaxIdleMs,
      log,
    });
    this.manager.fallbacks = this.fallbacks;
    this.pipelines.push(new LivePipelines(fallbacksKind(this.client, this.fallbacks), this.manager.events, host));
    this.recordings = new Recordings({
      client: this.client,
      reporter: this.reporter,
      inputs: () => this.directory.all(),
      tools: this.tools,
      agents: outboundAgents,
      log,
      dir: this.recordingsDir,
      from: () => `node ${this.identity?.name ?? config.publicHostname}`,
    });
    this.manager.events.subscribe(this.recordings);
    this.pipelines.push(new LivePipelines(recorderKind(this.recordings), this.manager.events, host));
    this.clips = new NodeClips({
      client: this.client,
      send: (report) => this.reporter.send(report),
      packagerOf: (inputId) => this.lowLatency.of(inputId) ?? this.lowLatency.variants(inputId)[0]?.packager ?? null,
      ffmpeg: config.ffmpeg,
      ffprobe: config.ffprobe,
      agents: outboundAgents,
      dir: join(config.dataDir, 'clips'),
      from: () => `node ${this.identity?.name ?? config.publicHostname}`,
      log,
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
      rtmpUrl: (name) => `rtmp://127.0.0.1:${this.rtmp?.internalPort ?? 0}/live/${name}?relay=${this.relaySecret}`,
    };
  }

  /** A pipeline's reports about its stream: status messages and node reports, through the one reporter. */
  private pipelineReporter(stream: LiveStream): PipelineReporter {
    return {
      message: (level, text) => this.manager.state(stream.input.id, { message: { level, text } }),
      send: (report) => this.reporter.send(report),
    };
  }

  async start(): Promise<void> {
    const { config } = this;
    this.identity = await this.client.whoami();
    this.log.info(`node token accepted: this is node "${this.identity.name}" (${this.identity.id})`);
    // Usage a previous life of the node counted and did not see acknowledged is sent (again) first.
    const recovered = await this.usageJournal.recover();
    for (const report of recovered) this.reporter.resend(report);
    if (recovered.length > 0) this.log.info(`sending ${recovered.length} usage reports left by the previous run`);
    this.usageJournal.start();
    this.server = new NodeHttpServer(this.controlKey, this.handlers, this.log);
    this.port = await this.server.listen(config.port, config.bindHost);
    this.ports.rtsp = config.mediaPorts.rtsp;

    const ffmpegMissing =
      existsSync(config.ffmpeg) && existsSync(config.ffprobe)
        ? null
        : `${config.ffmpeg} or ${config.ffprobe} is missing (Debian package ffmpeg)`;
    const nginxMissing = RtmpFrontEnd.missing({ nginx: config.nginx, rtmpModule: config.nginxRtmpModule });
    if (ffmpegMissing) this.problems.push(ffmpegMissing);
    if (nginxMissing) this.problems.push(nginxMissing);
    if (!nginxMissing) {
      this.rtmp = new RtmpFrontEnd({
        nginx: config.nginx,
        rtmpModule: config.nginxRtmpModule,
        dataDir: config.dataDir,
        port: config.mediaPorts.rtmp,
        bindHost: config.bindHost,
        httpPort: this.port,
        relaySecret: this.relaySecret,
        manager: this.manager,
        directory: this.directory,
        fallbacks: this.fallbacks,
        edges: this.edges,
        log: this.log,
      });
      this.ports.rtmp = await this.rtmp.start();
      this.hls = new HlsServer(
        this.manager,
        `${config.dataDir}/hls`,
        (input, key, heldUntil) => this.edges.pullRendition(input, key, heldUntil),
        this.lowLatency,
        this.vods,
      );
      if (!ffmpegMissing) {
        const relayUrl = this.tools.rtmpUrl;
        this.srt = srtIngest({
          ffmpeg: config.ffmpeg,
          port: config.mediaPorts.srt,
          bindHost: config.bindHost,
          manager: this.manager,
          log: this.log,
          relayUrl,
        });
        this.ports.srt = await this.srt.start();
        this.srtPlayback = srtPlayback({
          ffmpeg: config.ffmpeg,
          port: config.mediaPorts.srtPlayback,
          bindHost: config.bindHost,
          manager: this.manager,
          log: this.log,
          playUrl: relayUrl,
        });
        this.ports.srtPlayback = await this.srtPlayback.start();
        this.rtsp = new RtspIngest({
          ffmpeg: config.ffmpeg,
          port: config.mediaPorts.rtsp,
          bindHost: config.bindHost,
          manager: this.manager,
          log: this.log,
          relayUrl,
        });
        this.ports.rtsp = await this.rtsp.listen();
        this.whip = new WhipIngest({
          ffmpeg: config.ffmpeg,
          manager: this.manager,
          log: this.log,
          relayUrl,
          dataDir: config.dataDir,
          iceServers: config.iceServers,
        });
        this.whep = new WhepPlayback({
          ffmpeg: config.ffmpeg,
          manager: this.manager,
          log: this.log,
          playUrl: relayUrl,
          warmFeeds: config.warmFeeds,
          iceServers: config.iceServers,
        });
      }
    }
    for (const problem of this.problems) this.log.error(`media disabled: ${problem}`);

    await this.client
      .setMediaPorts(this.ports)
      .catch((error: unknown) => this.log.error(`could not tell the control plane the media ports: ${String(error)}`));
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
    this.log.info(
      `listening: control API and HLS/WHIP/WHEP on ${config.bindHost}:${this.port}, RTMP ${this.ports.rtmp || 'off'}, SRT ${this.ports.srt || 'off'} (playback ${this.ports.srtPlayback || 'off'})`,
    );
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.clips.stop();
    this.vods.close();
    // Files being recorded are closed first (the journal keeps them for the next start), then pushes end.
    await this.recordings.stop();
    await this.edges.stopAll();
    this.manager.shutdown();
    await this.fallbacks.stopAll();
    await Promise.all(this.pipelines.map((pipelines) => pipelines.stopAll()));
    await this.reporter.flushed();
    // What the control plane did not acknowledge stays in the journal for the next start.
    await this.usageJournal.stop();
    this.reporter.close();
    this.hls?.close();
    this.whip?.close();
    this.whep?.close();
    await this.srt?.close();
    await this.srtPlayback?.close();
    await this.rtsp?.close();
    await this.rtmp?.close();
    await this.server?.close();
  }

  private refreshing: Promise<void> | null = null;
  private queuedRefresh: Promise<void> | null = null;
  private lastRefreshAt = 0;
  /** Reads of the assigned inputs, numbered as sent, and the newest one applied to the directory. */
  private pollsSent = 0;
  private pollApplied = 0;

  /**
   * An extra read of the assigned inputs for a push or play naming an unknown stream or output: it starts
   * after the call (a read already going on may have missed what was created a moment ago), at most
   * one at a time and twice a second; callers meanwhile share it.
   */
  /** Asks the control plane for the stream of a GSLB name pushed here; null once this node serves it, else why not. */
  private async claimIngress(name: string): Promise<string | null> {
    try {
      await this.client.claimIngress(name);
    } catch (error) {
      if (error instanceof ApiError && error.status !== 0) return error.serverMessage ?? `answered ${error.status}`;
      this.log.error(`claiming ${name} failed: ${String(error)}`);
      return 'the control plane did not answer';
    }
    await this.refreshNow();
    return null;
  }

  private refreshNow(): Promise<void> {
    this.queuedRefresh ??= (async () => {
      await this.refreshing;
      const wait = this.lastRefreshAt + 500 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      this.queuedRefresh = null;
      this.lastRefreshAt = Date.now();
      const refreshing = this.poll().finally(() => {
        if (this.refreshing === refreshing) this.refreshing = null;
      });
      this.refreshing = refreshing;
      await refreshing;
    })();
    return this.queuedRefresh;
  }

  /** Reads the assigned inputs and lets the manager act on Stop and cleared sessions. */
  async poll(): Promise<void> {
    const delivered = this.reporter.delivered;
    const sent = ++this.pollsSent;
    try {
      const inputs = await this.client.inputs();
      // The timer's read and a refresh (a player naming an output created a moment ago) may overlap and answer
      // out of order: an older answer never replaces a newer one (it would drop that output again, and an
      // edge would stop the pull its first viewer just started).
      if (sent < this.pollApplied) return;
      // The signing material a Signed output's viewers are verified with is read before the inputs apply.
      await this.manager.signed.load(inputs);
      // (Again: a newer read may have applied while that material was read.)
      if (sent < this.pollApplied) return;
      this.pollApplied = sent;
      const changes = this.directory.replace(inputs);
      this.manager.reconcile(delivered, changes);
    } catch (error) {
      this.log.error(`reading the assigned inputs failed: ${String(error)}`);
    }
  }

  private sendLoad(): void {
    const { bandwidthMbps, sessions } = this.manager.usage.tick();
    const cpu = this.cpu.sample();
    this.reporter.send({
      kind: 'load',
      at: new Date().toISOString(),
      cpuPercent: Math.round(cpu.percent * 100) / 100,
      bandwidthMbps,
      sessions,
      health: nodeHealth({
        folders: [
          { what: 'data', path: this.config.dataDir },
          { what: 'recordings', path: this.recordingsDir },
        ],
        encoderCpuPercent: cpu.encoderPercent,
        uploadBacklog: this.recordings.uploadBacklog(),
      }),
    });
  }

  metadata(): Record<string, unknown> {
    const host = this.config.publicHostname;
    return {
      serverId: this.identity?.id ?? null,
      name: this.identity?.name ?? null,
      version: NODE_VERSION,
      hostname: host,
      location: this.identity?.location ?? null,
      uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000),
      protocols: {
        RTMP: this.ports.rtmp
          ? { port: this.ports.rtmp, ingest: `rtmp://${host}:${this.ports.rtmp}/live/<name>`, playback: true }
          : null,
        SRT: this.ports.srt
          ? {
              port: this.ports.srt,
              ingest: `srt://${host}:${this.ports.srt}?streamid=<name>`,
              playback: this.ports.srtPlayback
                ? `srt://${host}:${this.ports.srtPlayback}?streamid=<output name>`
                : false,
            }
          : null,
        WebRTC: this.whip
          ? {
              whip: `http://${host}:${this.port}/whip/<name>`,
              whep: this.whep ? `http://${host}:${this.port}/whep/<output name>` : false,
            }
          : null,
        HLS: this.hls
          ? {
              playback: `http://${host}:${this.port}/hls/<output name>/index.m3u8`,
              fragmentSeconds: HLS_FRAGMENT_SECONDS,
              // LL-HLS: what the packagers hold in memory, and the rewind windows on disk against their budget.
              lowLatency: {
                memoryBytes: this.lowLatency.memoryBytes(),
                dvrBytes: this.lowLatency.disk.used,
                dvrMaxBytes: this.lowLatency.disk.maxBytes,
              },
            }
          : null,
        RTSP: this.ports.rtsp
          ? { port: this.ports.rtsp, ingest: `rtsp://${host}:${this.ports.rtsp}/live/<name>`, transport: 'TCP' }
          : null,
      },
      mediaPorts: this.ports,
      streams: this.manager.activePushes().map((session) => ({
        id: session.input.id,
        name: session.input.name,
        protocol: session.protocol,
        since: session.startedAt.toISOString(),
        bytesIn: session.handle.bytesIn(),
        // How its WebRTC viewers get the video: H.264 as it is, or VP8 re-encoded and why (one entry per feed).
        webrtcFeeds: this.whep?.describe(session.input.id) ?? [],
        pipelines: Object.fromEntries(
          this.pipelines.flatMap((pipelines) => {
            const running = pipelines.of(session.input.id);
            return running ? [[pipelines.name, running.describe?.() ?? {}]] : [];
          }),
        ),
      })),
      sessions: this.manager.viewers.count,
      previews: this.manager.viewers.previewCounters(),
      // WHIP and WHEP sessions (answered offers), and those of them not connected yet (bounded: pending-offers.ts).
      webrtc: Object.fromEntries(
        (['whip', 'whep'] as const).map((kind) => {
          const endpoint = kind === 'whip' ? this.whip : this.whep;
          return [kind, endpoint && { sessions: endpoint.size, pendingOffers: endpoint.pending.count }];
        }),
      ),
      edgePulls: this.edges.describe(),
      clips: this.clips.describe(),
      emergencyCleanup: this.manager.admission.emergency,
      problems: this.problems,
    };
  }

  /** The twelve refresh modes, as far as they apply to this node (docs/decisions.md, '## Media node'). */
  async refresh(mode: NodeRefreshMode): Promise<Record<string, unknown>> {
    switch (mode) {
      case 'ServerId':
      case 'Location': {
        this.identity = await this.client.whoami();
        return mode === 'ServerId'
          ? { serverId: this.identity.id, name: this.identity.name }
          : { location: this.identity.location };
      }
      case 'Protocols':
        await this.client.setMediaPorts(this.ports);
        return { mediaPorts: this.ports, protocols: this.metadata().protocols, problems: this.problems };
      case 'Streams':
        await this.poll();
        return { inputs: this.manager.resync(), pushes: this.manager.activePushes().length };
      case 'Clips':
        await this.clips.read();
        return this.clips.describe();
      case 'Sessions':
        this.manager.resync();
        return { sessions: this.manager.viewers.count };
      case 'Bandwidth':
        this.sendLoad();
        return { reported: true };
      case 'EmergencyCleanup':
        this.manager.admission.emergency = true;
        return { emergencyCleanup: true, ...this.manager.cleanup() };
      case 'EmergencyCleanupDisable':
        this.manager.admission.emergency = false;
        return { emergencyCleanup: false };
      case 'Triggers':
      case 'Tags':
      case 'TURN':
        return { applied: false, reason: `${mode} does not apply to this node` };
      case 'ALL': {
        this.identity = await this.client.whoami();
        await this.client.setMediaPorts(this.ports);
        await this.poll();
        const inputs = this.manager.resync();
        this.sendLoad();
        return { serverId: this.identity.id, inputs, sessions: this.manager.viewers.count, mediaPorts: this.ports };
      }
    }
  }

  // ------------------------------------------------------------------ HTTP

  /** What answers each route of the table (http-routes.ts), once the router let the request through. */
  private readonly handlers: Record<RouteName, RouteHandler> = {
    metadata: async (_request, response) => json(response, 200, this.metadata()),
    refresh: async (_request, response, { body }) => {
      let mode: NodeRefreshMode;
      try {
        mode = NodeRefreshMode.parse((JSON.parse(body.toString() || '{}') as { mode?: unknown }).mode);
      } catch {
        return text(response, 400, `mode must be one of ${NodeRefreshMode.options.join(', ')}`);
      }
      return json(response, 200, { mode, ...(await this.refresh(mode)) });
    },
    hls: async (request, response, { segments, url }) => {
      if (!this.hls) return text(response, 503, 'HLS is not available on this node');
      return this.hls.handle(request, response, segments.slice(1).map(safeDecode), url.searchParams);
    },
    whep: (request, response, asked) => this.webrtc(this.whep, 'playback', request, response, asked),
    whip: (request, response, asked) => this.webrtc(this.whip, 'ingest', request, response, asked),
    nginx: async (request, response, { segments, body }) => {
      if (!this.rtmp) return text(response, 404, 'Not found');
      return this.rtmp.hook(request, response, segments, body);
    },
  };

  private webrtc(
    endpoint: WhipIngest | WhepPlayback | null,
    what: string,
    request: IncomingMessage,
    response: ServerResponse,
    { url, segments, body }: RouteRequest,
  ): Promise<void> {
    if (!endpoint) {
      text(response, 503, `WebRTC ${what} is not available on this node`);
      return Promise.resolve();
    }
    return endpoint.handle(request, response, segments.slice(1).map(safeDecode), url.searchParams, body);
  }
}
