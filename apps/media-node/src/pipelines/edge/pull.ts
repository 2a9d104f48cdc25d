import type { GuardedChild } from '../../child.js';
import type { ProxiedConnection, RtmpProxy } from '../../front-ends/rtmp/proxy.js';
import type { AssignedStream } from '../../streams/directory.js';
import type { LiveStream } from '../../streams/types.js';
import { renditionName } from './ladder.js';
import type { RenditionPackaging } from './rendition-packaging.js';

// One pull of the edge puller (puller.ts): what it is, where from, and its parts.

/**
 * Why a stream is pulled: `edge`, for this node's viewers of a stream ingested elsewhere (while they watch);
 * `internode`, as the content of an Internode stream this node ingests (while its source is live).
 */
export type PullKind = 'edge' | 'internode';

/** The stream a pull plays and where from: the origin's RTMP port, with the control plane's credential. */
export interface PullSource {
  name: string;
  nodeName: string;
  hostname: string;
  rtmpPort: number;
  credential: string;
}

/** The nginx name a pull publishes here: the stream id, or its rendition's name (the key of the pulls). */
export const pullName = (streamId: string, rendition: string | null) =>
  rendition === null ? streamId : renditionName(streamId, rendition);

/** One stream pulled from its origin node: ffmpeg reads it through a counting relay and publishes it here. */
export interface Pull {
  kind: PullKind;
  from: PullSource;
  assigned: AssignedStream;
  /** The HLS rendition of an edge's ladder this pull carries (published as `<stream id>_<key>`); null: the stream. */
  rendition: string | null;
  /** Its nginx name here (the stream id, or the rendition's name): the key of the pulls. */
  name: string;
  /** When it started; its publish reached nginx (every kind); the stream it became (not a rendition's pull). */
  startedAt: number;
  live: boolean;
  relay: RtmpProxy;
  /**
   * A relay between ffmpeg and this node's nginx: ffmpeg sends nothing after its publish command until nginx
   * accepted the publish (it waits for NetStream.Publish.Start), so its bytes tell when the stream exists there.
   */
  publisher: RtmpProxy;
  ffmpeg: GuardedChild | null;
  /** The relay's one connection to the origin, once ffmpeg made it: its bytes are the internode traffic. */
  connection: ProxiedConnection | null;
  stream: LiveStream | null;
  /** Resolves once it is published here (true), or when the pull failed first (false). */
  published: Promise<boolean>;
  resolvePublished: (published: boolean) => void;
  endMetering: (() => void) | null;
  lastWatchedAt: number;
  stopping: boolean;
  stderr: string;
  /** A ladder's rendition pulled for a Low latency output: its LL-HLS packaging here; null otherwise. */
  packaging: RenditionPackaging | null;
  /** Requests of its variant held for their answer (LL-HLS): the pull is watched while there are any. */
  held: number;
}

/** What a pull carries, for the log. */
export function describePull(pull: Pull): string {
  return pull.rendition === null ? pull.from.name : `rendition ${pull.rendition} of ${pull.from.name}`;
}

/** The relay's connection to the origin, kept once made (the relay forgets closed connections after a while). */
export function connectionOf(pull: Pull): ProxiedConnection | null {
  if (!pull.connection) pull.connection = pull.relay.connections[0] ?? null;
  return pull.connection;
}
