import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifyEdgeCredential } from '@streamcloud/contract/edge-credential';
import { text } from '../../http-answer.js';
import type { Logger } from '../../log.js';
import { RENDITIONS_WAIT_MS, renditionsReady } from '../../pipelines/capture.js';
import type { EdgePuller } from '../../pipelines/edge/puller.js';
import type { FallbackPlayer } from '../../pipelines/fallback/player.js';
import { freeLoopbackPort } from '../../ports.js';
import { normalizeName, type StreamDirectory, splitNameAndToken } from '../../streams/directory.js';
import type { StreamManager } from '../../streams/manager.js';
import type { LiveStream, MediaTrackSource } from '../../streams/types.js';
import type { FrontEndKind } from '../front-end.js';
import { NginxRtmp } from './nginx.js';
import { type ProxiedConnection, RtmpProxy } from './proxy.js';

/** HLS fragment length (s): fragments are cut at the publisher's keyframes, so a 1 s keyframe interval gives 1 s fragments. */
export const HLS_FRAGMENT_SECONDS = 1;

export interface RtmpFrontEndOptions {
  nginx: string;
  rtmpModule: string;
  dataDir: string;
  /** The public RTMP port (0: any) and the address it binds. */
  port: number;
  bindHost: string;
  /** The node's HTTP port: nginx calls its hooks there. */
  httpPort: number;
  /** The secret the node's own pushes and plays of nginx carry as `relay=` (SRT/WebRTC relays, feeds, pulls). */
  relaySecret: string;
  manager: StreamManager;
  directory: StreamDirectory;
  fallbacks: FallbackPlayer;
  edges: EdgePuller;
  log: Logger;
}

/**
 * RTMP: nginx-rtmp on a loopback port behind the node's byte-counting proxy (the public port), and the hooks
 * nginx calls before every publish and play (loopback only, under a secret path). A push is admitted and
 * renamed to its stream id, a viewer to what it plays; an edge's pull is metered as internode traffic.
 */
export class RtmpFrontEnd {
  /** nginx's own (loopback) port: the node's players and relays use it. */
  internalPort = 0;
  /** The public port. */
  port = 0;
  private nginx: NginxRtmp | null = null;
  private proxy: RtmpProxy | null = null;
  private readonly hookSecret = randomBytes(18).toString('base64url');
  private readonly pushesByAlias = new Map<string, LiveStream>();
  private readonly viewersByAlias = new Map<string, string>();
  /** As an origin: edges' pulls of our streams, by their RTMP connection's alias (their end stops the metering). */
  private readonly edgePlaysByAlias = new Map<string, () => void>();

  constructor(private readonly o: RtmpFrontEndOptions) {}

  async start(): Promise<number> {
    const { o } = this;
    this.internalPort = await freeLoopbackPort();
    this.nginx = new NginxRtmp(
      {
        nginx: o.nginx,
        rtmpModule: o.rtmpModule,
        dataDir: o.dataDir,
        rtmpPort: this.internalPort,
        hookBaseUrl: `http://127.0.0.1:${o.httpPort}/_nginx/${this.hookSecret}`,
        hlsFragmentSeconds: HLS_FRAGMENT_SECONDS,
      },
      o.log,
    );
    await this.nginx.start();
    this.proxy = new RtmpProxy(this.internalPort);
    this.proxy.onClose = (connection) => this.connectionClosed(connection);
    this.port = await this.proxy.listen(o.port, o.bindHost);
    return this.port;
  }

  async close(): Promise<void> {
    await this.proxy?.close();
    await this.nginx?.stop();
  }

  /** nginx-rtmp's callbacks (loopback only, secret path): 2xx admits, 3xx renames, anything else refuses. */
  async hook(request: IncomingMessage, response: ServerResponse, segments: string[], body: Buffer): Promise<void> {
    const remote = request.socket.remoteAddress ?? '';
    if (segments[1] !== this.hookSecret || !(remote === '127.0.0.1' || remote === '::ffff:127.0.0.1'))
      return text(response, 404, 'Not found');
    const form = new URLSearchParams(body.toString());
    const answer = await this.answer(segments[2], form);
    if (answer.renameTo !== undefined) response.writeHead(302, { location: answer.renameTo });
    else response.writeHead(answer.ok ? 200 : 403);
    response.end();
  }

  /** What nginx is told of one call: admitted (renamed, or as it is) or refused. */
  private async answer(call: string | undefined, form: URLSearchParams): Promise<HookAnswer> {
    const addr = form.get('addr') ?? '';
    if (call === 'publish') return this.publish(form, addr);
    if (call === 'publish_done') {
      if (addr === '127.0.0.1' && this.o.fallbacks.publishDone(form.get('clientid') ?? '')) return OK;
      const session = this.pushesByAlias.get(addr);
      if (session) {
        this.pushesByAlias.delete(addr);
        const connection = this.proxy?.byAddress(addr);
        this.o.manager.endPush(
          session,
          session.firstFragmentAt === null ? 'no media arrived' : (connection?.error ?? null),
        );
      }
      return OK;
    }
    if (call === 'play') return this.play(form, addr);
    if (call === 'play_done') {
      this.endEdgePlay(addr);
      const id = this.viewersByAlias.get(addr);
      if (id) {
        this.viewersByAlias.delete(addr);
        this.o.manager.viewers.end(id);
      }
    }
    return OK;
  }

  /** The node's own pushes and plays of nginx: from loopback, with the relay secret. */
  private internal(form: URLSearchParams, addr: string): boolean {
    return form.get('relay') === this.o.relaySecret && addr === '127.0.0.1';
  }

  private async publish(form: URLSearchParams, addr: string): Promise<HookAnswer> {
    const { manager, fallbacks, edges } = this.o;
    const name = form.get('name') ?? '';
    const fallbackOf = form.get('fallback');
    if (fallbackOf !== null) {
      // The node's fallback player, publishing into the name of the push it stands in for.
      if (!this.internal(form, addr)) return REFUSED;
      const stream = fallbacks.published(fallbackOf, form.get('clientid') ?? '');
      return stream ? { ok: true, renameTo: stream.assigned.id } : REFUSED;
    }
    // An edge pull publishing the stream it pulls from the origin node, under the stream id.
    if (form.get('edge') !== null) return this.internal(form, addr) && edges.published(name) ? OK : REFUSED;
    // SRT and WebRTC relays push under the stream id with the relay secret; the front end admitted them.
    if (form.get('relay') !== null) return this.internal(form, addr) ? OK : REFUSED;
    const connection = this.proxy?.byAddress(addr);
    if (!connection || connection.closed) return REFUSED;
    const admitted = await manager.admission.push(
      'RTMP',
      name,
      form.get('token'),
      connection.remoteAddress,
      () => !connection.closed,
    );
    if (!admitted.ok) {
      manager.refusePush(admitted);
      return REFUSED;
    }
    const session = manager.startPush(admitted.assigned, 'RTMP', {
      rawName: name,
      remoteAddress: connection.remoteAddress,
      bytesIn: () => connection.bytesFromClient,
      bytesOut: () => connection.bytesToClient,
      kick: () => connection.close(),
    });
    this.pushesByAlias.set(addr, session);
    // The live stream is renamed to the stream id, so players of every output name can be sent to it.
    return { ok: true, renameTo: admitted.assigned.id };
  }

  private async play(form: URLSearchParams, addr: string): Promise<HookAnswer> {
    const { manager, log } = this.o;
    const name = form.get('name') ?? '';
    // The node's own players (the WebRTC feeds) play the stream id with the relay secret.
    if (form.get('relay') !== null) return this.internal(form, addr) ? OK : REFUSED;
    const connection = this.proxy?.byAddress(addr);
    if (!connection || connection.closed) return REFUSED;
    const edgeCredential = form.get('edge');
    if (edgeCredential !== null) {
      const played = this.edgePlay(name, edgeCredential, form.get('rendition'), connection);
      return played ? { ok: true, renameTo: played.rtmpName } : REFUSED;
    }
    const address = connection.remoteAddress || null;
    const admitted = await manager.admission.play('RTMP', name, {
      token: rtmpPlayToken(connection, name, form),
      address,
    });
    if (!admitted.ok) {
      log.info(`RTMP play of ${name}${address ? ` from ${address}` : ''} refused: ${admitted.reason}`);
      return REFUSED;
    }
    const id = `rtmp-${connection.id}-${form.get('clientid') ?? '0'}`;
    manager.viewers.start({
      id,
      streamId: admitted.assigned.id,
      outputId: admitted.outputId,
      format: 'RTMP',
      ...(admitted.grant ? { grant: admitted.grant } : {}),
      ipAddress: address,
      bytesOut: () => connection.bytesToClient,
      bytesIn: () => connection.bytesFromClient,
      kick: () => connection.close(),
    });
    this.viewersByAlias.set(addr, id);
    // A viewer joining a starting ladder is held until its top rendition exists: a rename is for good.
    const push = admitted.push;
    const until = Date.now() + RENDITIONS_WAIT_MS;
    await renditionsReady(push, () => !push.ended && !connection.closed && Date.now() < until);
    return { ok: true, renameTo: push.outgoing.main.rtmpName };
  }

  /**
   * Another node pulls one of our streams as its edge (`?edge=<credential>`, never a user's token): admitted
   * when the credential is the control plane's for this stream (checked with the stream's edge key) and the
   * stream is live here. Not a viewer: its bytes are the stream's internode usage. Answers what it plays: what
   * RTMP viewers get (the top rendition of a ladder), or the HLS rendition `rendition` names (an edge's variant).
   */
  private edgePlay(
    name: string,
    credential: string,
    rendition: string | null,
    connection: ProxiedConnection,
  ): MediaTrackSource | null {
    const { directory, manager, log } = this.o;
    const assigned = directory.byName(name);
    const edgeNodeId =
      assigned?.edgeKey && !assigned.origin ? verifyEdgeCredential(assigned.edgeKey, assigned.id, credential) : null;
    const push = assigned && edgeNodeId ? manager.push(assigned.id) : undefined;
    const played =
      rendition === null ? push?.outgoing.main : push?.outgoing.renditions?.find((each) => each.key === rendition);
    if (!assigned || !edgeNodeId || !played) {
      const why = !edgeNodeId ? 'bad credential' : push ? `no rendition ${rendition}` : 'not live';
      log.info(`edge pull of ${name} from ${connection.remoteAddress} refused: ${why}`);
      return null;
    }
    const what = rendition === null ? assigned.name : `rendition ${rendition} of ${assigned.name}`;
    log.info(`node ${edgeNodeId} pulls ${what} as an edge from ${connection.remoteAddress}`);
    this.endEdgePlay(connection.alias);
    this.edgePlaysByAlias.set(
      connection.alias,
      manager.usage.meter(
        { streamId: assigned.id, bytesIn: () => connection.bytesFromClient, bytesOut: () => connection.bytesToClient },
        'internode',
      ),
    );
    return played;
  }

  private endEdgePlay(alias: string): void {
    const end = this.edgePlaysByAlias.get(alias);
    if (!end) return;
    this.edgePlaysByAlias.delete(alias);
    end();
  }

  /** The RTMP client's TCP connection closed: whatever it did ends with it (nginx may not say so, e.g. if it died). */
  private connectionClosed(connection: ProxiedConnection): void {
    const { manager } = this.o;
    this.endEdgePlay(connection.alias);
    const session = this.pushesByAlias.get(connection.alias);
    if (session) {
      this.pushesByAlias.delete(connection.alias);
      manager.endPush(session, session.firstFragmentAt === null ? 'no media arrived' : connection.error);
    }
    const viewer = this.viewersByAlias.get(connection.alias);
    if (viewer) {
      this.viewersByAlias.delete(connection.alias);
      manager.viewers.end(viewer);
    }
  }
}

/** RTMP on the node's RTMP port, and nginx's hooks on its HTTP port (started after it: nginx is told where). */
export const rtmpFrontEnd: FrontEndKind<RtmpFrontEnd> = {
  name: 'rtmp',
  needs: ['nginx'],
  port: 'rtmp',
  routes: { nginx: { status: 404, message: 'Not found' } },
  async start({ config, frontEnds, relaySecret, manager, directory, fallbacks, edges, log }) {
    const rtmp = new RtmpFrontEnd({
      nginx: config.nginx,
      rtmpModule: config.nginxRtmpModule,
      dataDir: config.dataDir,
      port: config.mediaPorts.rtmp,
      bindHost: config.bindHost,
      httpPort: frontEnds.portOf('http'),
      relaySecret,
      manager,
      directory,
      fallbacks,
      edges,
      log,
    });
    return {
      server: rtmp,
      port: await rtmp.start(),
      routes: { nginx: (request, response, { segments, body }) => rtmp.hook(request, response, segments, body) },
      stop: () => rtmp.close(),
    };
  },
};

/** What a hook answers nginx: admitted (as it is, or renamed: a 302 to the new name) or refused (403). */
interface HookAnswer {
  ok: boolean;
  renameTo?: string;
}
const OK: HookAnswer = { ok: true };
const REFUSED: HookAnswer = { ok: false };

/**
 * The token of an RTMP play: from the play command the proxy read whole when it names the same stream (nginx-rtmp
 * cuts a name and its query at 255 bytes, a signed playback token with them), else from nginx's callback.
 */
function rtmpPlayToken(connection: ProxiedConnection, name: string, form: URLSearchParams): string | null {
  const sent = connection.playName === null ? null : splitNameAndToken(connection.playName);
  return sent && normalizeName(sent.name) === normalizeName(name) ? sent.token : form.get('token');
}
