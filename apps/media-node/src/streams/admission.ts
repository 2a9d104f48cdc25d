import type { InputFormat } from '@streamcloud/contract';
import { isPreviewCredential, verifyPreviewCredential } from '@streamcloud/contract/preview-credential';
import type { AssignedStream } from './directory.js';
import { normalizeName, type StreamDirectory, tokenAccepted } from './directory.js';
import type { SignedPlayback, ViewerRequest } from './signed-playback.js';
import type { LiveStream, PlayFormat, PushProtocol, SignedGrant } from './types.js';

export type PushRefusal = { ok: false; reason: string; assigned?: AssignedStream };
export type PushAdmission = { ok: true; assigned: AssignedStream } | PushRefusal;
/**
 * A refused player: the status and why. `signed` when a Signed output refused its playback token: `reason` is
 * then the text a player shows (packages/playback-tokens' REFUSALS), sent as is with a 403.
 */
export type PlayRefusal = { ok: false; status: number; reason: string; signed?: boolean };
/**
 * An output a player may watch; `preview` when it came with a preview credential rather than a viewer token,
 * `grant` when a signed playback token opened it (the session ends with the token's revocation or duration).
 */
export type OutputAdmission =
  | { ok: true; assigned: AssignedStream; outputId: string; preview: boolean; grant: SignedGrant | null }
  | PlayRefusal;
export type PlayAdmission =
  | {
      ok: true;
      assigned: AssignedStream;
      outputId: string;
      preview: boolean;
      grant: SignedGrant | null;
      push: LiveStream;
    }
  | PlayRefusal;

/** The formats the console's preview player plays (docs/decisions.md: preview sessions). */
const PREVIEW_FORMATS: readonly PlayFormat[] = ['WebRTC', 'HLS'];

const FORMAT_OF: Record<PushProtocol, InputFormat> = {
  RTMP: 'RTMP',
  SRT: 'SRT',
  WebRTC: 'WebRTC',
  RTSP: 'RTSP',
  Internode: 'Internode',
};

/** A stream's GSLB name (`as+<uuid>`): any node takes a push to it (the control plane moves the stream there). */
const isIngressName = (name: string) => normalizeName(name).toLowerCase().startsWith('as+');

/**
 * Who may push and who may play: the rules only (known stream, its format, its token, one push at a time,
 * emergency cleanup), asked by every protocol front end. A name the node does not know re-reads the
 * assigned streams first, so a stream or output created a moment ago works at once.
 */
export class Admission {
  /** Emergency cleanup: every push and play is refused until it is disabled. */
  emergency = false;
  /** On an edge node: pulls a stream ingested elsewhere for a viewer here (pipelines/edge); resolves once it is live here. */
  pull: ((assigned: AssignedStream) => Promise<LiveStream | undefined>) | null = null;

  constructor(
    private readonly directory: StreamDirectory,
    /** The stream's push going on, if any. */
    private readonly livePush: (streamId: string) => LiveStream | undefined,
    private readonly refreshDirectory?: () => Promise<void>,
    /**
     * Stops the stream's fallback (a push takes the stream back); resolves once it let go of the stream, or
     * false when the push left first (`connected`, see FallbackTakeover.release): the fallback plays on.
     */
    private readonly releaseFallback: (streamId: string, connected?: () => boolean) => Promise<boolean> = async () =>
      true,
    /** Asks for the stream of a GSLB name pushed here (docs/decisions.md); null once it is here, else why not. */
    private readonly claimIngress?: (name: string) => Promise<string | null>,
    /** Verifies the playback tokens of Signed outputs; none: a Signed output admits nobody. */
    private readonly signed?: SignedPlayback,
  ) {}

  async push(
    protocol: PushProtocol,
    name: string,
    token: string | null,
    remoteAddress: string | null,
    /** Whether the pushing client is still connected, when the front end can tell (RTMP). */
    connected?: () => boolean,
  ): Promise<PushAdmission> {
    let assigned = this.directory.byName(name);
    if (!assigned && this.refreshDirectory) {
      await this.refreshDirectory();
      assigned = this.directory.byName(name);
    }
    const from = remoteAddress ? ` from ${remoteAddress}` : '';
    if (!assigned && this.claimIngress && isIngressName(name)) {
      const refused = await this.claimIngress(normalizeName(name));
      if (refused) return { ok: false, reason: `Push${from} to ${normalizeName(name)} refused: ${refused}` };
      assigned = this.directory.byName(name);
    }
    if (!assigned) return { ok: false, reason: `no stream named ${normalizeName(name)} is served by this node` };
    // An edge serves some of the stream's viewers; the stream is pushed to its ingest node only.
    if (assigned.origin)
      return { ok: false, reason: `Push${from} refused: this stream is ingested by node ${assigned.origin.nodeName}` };
    if (this.emergency) return { ok: false, assigned, reason: `Push${from} refused: the node is in emergency cleanup` };
    // The token first: a publisher without it learns nothing of the stream (not even its format).
    if (assigned.access !== 'Public' && !tokenAccepted(assigned, token)) {
      return { ok: false, assigned, reason: `Push${from} refused: ${token ? 'wrong' : 'missing'} access token` };
    }
    if (assigned.format !== FORMAT_OF[protocol]) {
      return {
        ok: false,
        assigned,
        reason: `Push${from} refused: this stream takes ${assigned.format} pushes, not ${protocol}`,
      };
    }
    const pushing = () => {
      const live = this.livePush(assigned.id);
      return live !== undefined && live.fallback === null;
    };
    const busy = {
      ok: false as const,
      input: assigned,
      reason: `Push${from} refused: the stream is already being pushed`,
    };
    if (pushing()) return busy;
    // A fallback playing (or starting) gives the stream back to its push.
    if (!(await this.releaseFallback(assigned.id, connected))) {
      // A flapping encoder gone while its return was held: nothing to tell the owner, the fallback played on.
      return { ok: false, reason: `push of ${assigned.name}${from} left before it was admitted` };
    }
    return pushing() ? busy : { ok: true, assigned };
  }

  /** Whether a player may watch the output `name` in `format`, and the push it would watch. */
  async play(format: PlayFormat, name: string, viewer: ViewerRequest): Promise<PlayAdmission> {
    const found = await this.output(format, name, viewer);
    if (!found.ok) return found;
    const push = await this.live(found.assigned);
    if (!push) return { ok: false, status: 404, reason: 'the stream is not live' };
    return { ...found, push };
  }

  /** The stream's push here; on an edge, the stream pulled from its ingest node, pulled now if need be. */
  async live(assigned: AssignedStream): Promise<LiveStream | undefined> {
    const push = this.livePush(assigned.id);
    if (push || !assigned.origin || !this.pull) return push;
    return this.pull(assigned);
  }

  /**
   * The output `name` in `format` if this player may watch it, live or not, by the output's policy: anyone
   * (Public), with its static viewer token (Private), with a playback token signed with a key of its account
   * that allows this viewer (Signed: the static token is refused); or as a preview with a preview credential of
   * its stream (WebRTC and HLS), whatever the policy. The one admission of every protocol's players.
   */
  async output(format: PlayFormat, name: string, viewer: ViewerRequest): Promise<OutputAdmission> {
    const { token } = viewer;
    let found = this.directory.output(name);
    if (!found && this.refreshDirectory) {
      await this.refreshDirectory();
      found = this.directory.output(name);
    }
    if (!found || found.output.format !== format)
      return { ok: false, status: 404, reason: `no ${format} output named ${name}` };
    if (this.emergency) return { ok: false, status: 503, reason: 'the node is in emergency cleanup' };
    const admitted = { ok: true as const, assigned: found.assigned, outputId: found.output.id, grant: null };
    if (isPreviewCredential(token)) {
      if (!PREVIEW_FORMATS.includes(format))
        return { ok: false, status: 403, reason: `preview credentials do not play ${format} outputs` };
      if (!verifyPreviewCredential(found.assigned.previewKey, found.assigned.id, token))
        return { ok: false, status: 403, reason: 'invalid or expired preview credential' };
      return { ...admitted, preview: true };
    }
    if (found.output.access === 'Signed') {
      if (!this.signed) return { ok: false, status: 403, reason: 'signed playback tokens are not verified here' };
      const target = { outputId: found.output.id, streamId: found.assigned.id };
      const verdict = this.signed.verify(found.assigned.id, target, viewer);
      if (!verdict.ok) return { ok: false, status: 403, reason: verdict.message, signed: true };
      return { ...admitted, preview: false, grant: verdict.grant };
    }
    if (found.output.access === 'Private' && !tokenAccepted(found.output, token, { running: viewer.running ?? false }))
      return { ok: false, status: 403, reason: `${token ? 'wrong' : 'missing'} playback token` };
    return { ...admitted, preview: false };
  }
}
