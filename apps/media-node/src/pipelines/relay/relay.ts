import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { type NodeRelay, selectorConstrains } from '@streamcloud/contract';
import type { NodeConfig } from '../../config.js';
import type { ControlPlaneClient, ReportBody } from '../../control-plane.js';
import type { AssignedStream } from '../../streams/directory.js';
import type { StreamEvents } from '../../streams/events.js';
import type { LiveStream } from '../../streams/types.js';
import {
  awaitingRenditions,
  type CaptureCandidate,
  captureCandidates,
  captureInputArgs,
  captureMapArgs,
  captureOrigins,
  selectTracks,
} from '../capture.js';
import type { NodeTools, Pipeline, PipelineContext, PipelineKind, StopReason } from '../pipeline.js';
import { CmafTarget } from './cmaf.js';
import { RelayJob, type RelayReport } from './job.js';
import { type RelayPolicies, relayPolicies } from './outbound.js';
import { RtmpTarget } from './rtmp.js';
import { RelayFailure, type RelaySource, type RelayTarget } from './target.js';
import { UdpTarget } from './udp.js';

export interface RelaysOptions {
  client: Pick<ControlPlaneClient, 'relays'>;
  events: StreamEvents;
  /** Whether a stream's push is live here now (its relays then run in its pipeline). */
  live(streamId: string): boolean;
  /** Sends a node report (relays of streams that are not live). */
  send(report: ReportBody): void;
  /**
   * `<dataDir>/relays`, a directory only the node's user reads: RTMP relays' preset files (stream keys) live
   * there for a moment; where relays may connect and send (ALLOW_PRIVATE_NETWORKS); failures lasting
   * `relayGiveUpMs` end a relay in Error.
   */
  config: Pick<NodeConfig, 'dataDir' | 'allowPrivateNetworks' | 'relayGiveUpMs'>;
}

/**
 * A relay whose push ended: it goes on if the push resumes within the reconnect grace, else it is
 * Completed. Its uploaded bytes are known once its connection has closed.
 */
interface Paused {
  streamId: string;
  uploaded: Promise<number>;
  report(fields: RelayReport): void;
}

/**
 * Relays: while a stream's push is live, each of its relays (`GET /node/relays`: Relaying ones, and
 * autostarting ones not stopped) sends the captured tracks to its destination. Stop disconnects and
 * completes it; a relay that disappears from the configuration (deleted) is disconnected silently. When
 * the push ends the relays pause; they go on if it resumes within the reconnect grace, else they are
 * Completed (an autostarting relay starts a new run with the next push).
 */
export function relaysKind(o: RelaysOptions): PipelineKind<NodeRelay[]> {
  const secretsDir = join(o.config.dataDir, 'relays');
  const policies = relayPolicies({ allowPrivate: o.config.allowPrivateNetworks });
  // Preset files a node killed mid-relay left behind hold stream keys: none survives a start.
  rmSync(secretsDir, { recursive: true, force: true });
  const paused = new Map<string, Paused>();
  const complete = (filter: (entry: Paused) => boolean, text: string) => {
    for (const [relayId, entry] of paused) {
      if (!filter(entry)) continue;
      paused.delete(relayId);
      void entry.uploaded.then((uploaded) =>
        entry.report({ state: 'Completed', uploaded, messages: [{ level: 'info', text }] }),
      );
    }
  };
  // A paused relay no longer listed for its stream (deleted, or finished elsewhere) is forgotten: when the stream
  // goes live again with relays (load), or when its relays change during the grace (the sweep) — a stream left
  // with none is not read when it goes live again (whenNothing).
  const forgetUnlisted = (streamIds: ReadonlySet<string>, relays: readonly NodeRelay[]) => {
    for (const [relayId, entry] of paused)
      if (streamIds.has(entry.streamId) && !relays.some((relay) => relay.id === relayId)) paused.delete(relayId);
  };
  // Relays of streams that are not live: a Stop completes them here (no pipeline runs them). Read in one
  // request for every stream whose relays changed meanwhile (at the node's start, that is all of them).
  const idle = new Set<string>();
  let sweeping: NodeJS.Timeout | null = null;
  const sweep = async () => {
    sweeping = null;
    const streamIds = new Set(idle);
    idle.clear();
    let relays: NodeRelay[];
    try {
      relays = await o.client.relays();
    } catch {
      return; // the next change of these streams' relays tries again
    }
    forgetUnlisted(streamIds, relays);
    for (const relay of relays) {
      if (!streamIds.has(relay.streamId) || o.live(relay.streamId)) continue;
      if (!relay.stopRequested || relay.state !== 'Relaying') continue;
      const entry = paused.get(relay.id);
      paused.delete(relay.id);
      const uploaded = entry ? { uploaded: await entry.uploaded } : {};
      const text = entry ? 'Stopped' : 'Stopped while the stream was not live';
      o.send({
        kind: 'relay-state',
        relayId: relay.id,
        at: new Date().toISOString(),
        state: 'Completed',
        ...uploaded,
        messages: [{ level: 'info', text }],
      });
    }
  };
  o.events.subscribe({
    gone: (streamId) => complete((entry) => entry.streamId === streamId, 'The push ended'),
    configChanged: (assigned, parts) => {
      if (!parts.has('relays') || o.live(assigned.id)) return;
      idle.add(assigned.id);
      sweeping ??= setTimeout(() => void sweep(), 100);
      sweeping.unref();
    },
  });
  const book: RelayBook = {
    failingForMs: o.config.relayGiveUpMs,
    target: (relay) => relayTarget(relay, secretsDir, policies),
    pause: (relayId, entry) => paused.set(relayId, entry),
    resume: (relayId) => {
      const entry = paused.get(relayId);
      paused.delete(relayId);
      return entry ? entry.uploaded : null;
    },
  };
  return {
    name: 'relays',
    part: 'relays',
    whenNothing: 'skip',
    async load(assigned: AssignedStream) {
      const relays = (await o.client.relays()).filter((relay) => relay.streamId === assigned.id);
      forgetUnlisted(new Set([assigned.id]), relays);
      return relays.length > 0 ? relays : null;
    },
    create: (context) => new StreamRelays(context, book),
    same: (a, b) => JSON.stringify(a) === JSON.stringify(b),
    shutdown: () => complete(() => true, 'The node serving this stream stopped'),
  };
}

/** What the relays of every stream share: targets, the give-up time and the paused relays. */
interface RelayBook {
  failingForMs: number;
  target(relay: NodeRelay): RelayTarget;
  pause(relayId: string, entry: Paused): void;
  /** A paused relay's uploaded bytes, and it is no longer paused; null when it was not paused. */
  resume(relayId: string): Promise<number> | null;
}

/** The destination of a relay's settings. */
export function relayTarget(relay: NodeRelay, secretsDir: string, policies: RelayPolicies): RelayTarget {
  switch (relay.format) {
    case 'RTMP':
      if (relay.output.keyUnreadable)
        throw new RelayFailure('the stream key cannot be decrypted on the control plane: set it again', 'fatal');
      return new RtmpTarget(relay.output, secretsDir, policies.connections);
    case 'CMAF':
      return new CmafTarget(relay.output, policies.connections);
    case 'UDPTS':
      return new UdpTarget(relay.output, policies.datagrams);
  }
}

/**
 * What a relay reads from the stream now: the captured tracks (pipelines/capture.ts) of its source —
 * Incoming, the push; Outgoing, what viewers get — and the ffmpeg inputs and maps that read them. Before
 * the push's tracks are probed, a capture that takes every track of its types (the default) starts at
 * once, its maps optional (`0:v?`), unless the target needs to know the tracks; otherwise null (wait).
 * An Outgoing capture of an adjustable-transcode stream waits for its ladder (capture's awaitingRenditions).
 */
export function relaySource(
  relay: NodeRelay,
  stream: LiveStream,
  target: RelayTarget,
  tools: NodeTools,
): RelaySource | null {
  const outgoing = relay.capture.source === 'Outgoing';
  if (outgoing && awaitingRenditions(stream)) return null;
  const origin = outgoing ? stream.outgoing.main : stream.source;
  // What viewers get of a ladder is its top rendition, with the tracks probed from it.
  const top = outgoing ? stream.outgoing.renditions?.[0] : undefined;
  const tracks = top ? top.tracks : stream.tracks;
  const selectors = relay.capture.tracks;
  const base = { ffmpeg: tools.ffmpeg, unmatched: [] as number[], dropped: 0 };
  if (tracks) {
    const selection = selectTracks(selectors, captureCandidates([{ source: origin, tracks }]));
    const taken = target.perType === undefined ? selection.tracks : firstOf(selection.tracks, target.perType);
    const maps = captureMapArgs(taken);
    return {
      ...base,
      inputArgs: captureInputArgs(captureOrigins(taken), tools.rtmpUrl, stream),
      tracks: taken.map(({ track }, i) => ({ type: track.type, map: maps[2 * i + 1] ?? '', info: track })),
      unmatched: selection.unmatched,
      dropped: selection.tracks.length - taken.length,
    };
  }
  if (target.needsTracks || selectors.some(selectorConstrains)) return null;
  const types = [...new Set(selectors.map((selector) => selector.type))];
  return {
    ...base,
    inputArgs: captureInputArgs([origin], tools.rtmpUrl, stream),
    tracks: types.map((type) => ({ type, map: `0:${type === 'Video' ? 'v' : 'a'}?`, info: null })),
  };
}

/** The first `count` tracks of each type, in their order. */
function firstOf(tracks: CaptureCandidate[], count: number): CaptureCandidate[] {
  const seen = { Video: 0, Audio: 0 };
  return tracks.filter(({ track }) => seen[track.type]++ < count);
}

const settingsOf = (relay: NodeRelay) =>
  JSON.stringify({ format: relay.format, output: relay.output, capture: relay.capture });

/** The relays of one live stream. */
class StreamRelays implements Pipeline<NodeRelay[]> {
  private stream: LiveStream | null = null;
  private readonly jobs = new Map<string, RelayJob>();

  constructor(
    private readonly context: PipelineContext,
    private readonly book: RelayBook,
  ) {}

  async start(stream: LiveStream, relays: NodeRelay[]): Promise<void> {
    this.stream = stream;
    await Promise.all(relays.map((relay) => this.add(relay)));
  }

  async update(relays: NodeRelay[]): Promise<void> {
    const byId = new Map(relays.map((relay) => [relay.id, relay]));
    await Promise.all(
      [...this.jobs].map(async ([id, job]) => {
        const relay = byId.get(id);
        byId.delete(id);
        if (!relay || relay.stopRequested) {
          this.jobs.delete(id);
          await job.stop(relay ? { how: 'stopped' } : { how: 'removed' });
        } else if (settingsOf(relay) !== settingsOf(job.relay)) {
          // New settings for one that gave up (an autostarting relay stays listed): a new run tries them.
          if (job.finished) {
            this.jobs.delete(id);
            await this.add(relay);
          } else await job.restart(relay);
        } else job.relay = relay;
      }),
    );
    await Promise.all([...byId.values()].map((relay) => this.add(relay)));
  }

  async stop(reason: StopReason): Promise<void> {
    const stream = this.stream;
    const jobs = [...this.jobs];
    this.jobs.clear();
    await Promise.all(
      jobs.map(async ([relayId, job]) => {
        if (reason === 'configuration removed') return job.stop({ how: 'removed' });
        if (reason !== 'push ended' || stream?.stoppedByControlPlane)
          return job.stop({ how: 'finished', message: this.endMessage(reason, stream) });
        // Paused at once (the reconnect grace may end before the connection has closed).
        const uploaded = job.stop({ how: 'paused' });
        if (stream)
          this.book.pause(relayId, { streamId: stream.assigned.id, uploaded, report: this.reporter(relayId) });
        await uploaded;
      }),
    );
  }

  private endMessage(reason: StopReason, stream: LiveStream | null): string {
    if (reason === 'node stopping') return 'The node serving this stream stopped';
    // A Stop of the stream, its deletion, or the node stopping.
    if (stream?.stoppedByControlPlane) return 'The push was disconnected';
    return 'The push ended';
  }

  private async add(relay: NodeRelay): Promise<void> {
    const stream = this.stream;
    if (!stream) return;
    const report = this.reporter(relay.id);
    const paused = this.book.resume(relay.id);
    const carried = paused === null ? null : await paused;
    if (relay.stopRequested) {
      if (relay.state === 'Relaying')
        report({
          state: 'Completed',
          ...(carried === null ? {} : { uploaded: carried }),
          messages: [{ level: 'info', text: 'Stopped' }],
        });
      return;
    }
    const job = new RelayJob(
      relay,
      stream,
      {
        context: this.context,
        report,
        target: this.book.target,
        source: relaySource,
        failingForMs: this.book.failingForMs,
      },
      carried ?? 0,
    );
    this.jobs.set(relay.id, job);
    job.start(carried !== null);
  }

  private reporter(relayId: string): (fields: RelayReport) => void {
    return (fields) =>
      this.context.reporter.send({ kind: 'relay-state', relayId, at: new Date().toISOString(), ...fields });
  }
}
