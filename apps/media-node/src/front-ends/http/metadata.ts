import type { Node } from '@streamcloud/contract';
import type { NodeClips } from '../../clips/clips.js';
import type { MediaPorts, NodeConfig } from '../../config.js';
import type { LowLatencyPackagers } from '../../ll-hls/packagers.js';
import type { EdgePuller } from '../../pipelines/edge/puller.js';
import type { Pipelines } from '../../pipelines/pipelines.js';
import type { StreamManager } from '../../streams/manager.js';
import type { FrontEnds } from '../front-ends.js';
import { hlsFrontEnd } from '../hls/hls.js';
import { HLS_FRAGMENT_SECONDS } from '../rtmp/rtmp.js';
import { whepFrontEnd } from '../webrtc/whep.js';
import { whipFrontEnd } from '../webrtc/whip.js';

export const NODE_VERSION = '1.0.0';

/** What the node's metadata is read from. */
export interface NodeFacts {
  readonly config: NodeConfig;
  readonly identity: Node | null;
  readonly startedAt: number;
  /** The HTTP port, and the media ports as told to the control plane. */
  readonly port: number;
  readonly ports: MediaPorts;
  /** What could not start (missing tools). */
  readonly problems: readonly string[];
  readonly frontEnds: FrontEnds;
  readonly manager: StreamManager;
  readonly lowLatency: LowLatencyPackagers;
  readonly pipelines: Pick<Pipelines, 'running'>;
  readonly edges: EdgePuller;
  readonly clips: NodeClips;
}

/** `GET /metadata` of the control API: who the node is, what it speaks and where, and what it is doing. */
export function nodeMetadata(node: NodeFacts): Record<string, unknown> {
  const { config, identity, port, ports, frontEnds, manager, lowLatency } = node;
  const host = config.publicHostname;
  const whip = frontEnds.get(whipFrontEnd);
  const whep = frontEnds.get(whepFrontEnd);
  return {
    serverId: identity?.id ?? null,
    name: identity?.name ?? null,
    version: NODE_VERSION,
    hostname: host,
    location: identity?.location ?? null,
    uptimeSeconds: Math.round((Date.now() - node.startedAt) / 1000),
    protocols: {
      RTMP: ports.rtmp
        ? { port: ports.rtmp, ingest: `rtmp://${host}:${ports.rtmp}/live/<name>`, playback: true }
        : null,
      SRT: ports.srt
        ? {
            port: ports.srt,
            ingest: `srt://${host}:${ports.srt}?streamid=<name>`,
            playback: ports.srtPlayback ? `srt://${host}:${ports.srtPlayback}?streamid=<output name>` : false,
          }
        : null,
      WebRTC: whip
        ? {
            whip: `http://${host}:${port}/whip/<name>`,
            whep: whep ? `http://${host}:${port}/whep/<output name>` : false,
          }
        : null,
      HLS: frontEnds.get(hlsFrontEnd)
        ? {
            playback: `http://${host}:${port}/hls/<output name>/index.m3u8`,
            fragmentSeconds: HLS_FRAGMENT_SECONDS,
            // LL-HLS: what the packagers hold in memory, and the rewind windows on disk against their budget.
            lowLatency: {
              memoryBytes: lowLatency.memoryBytes(),
              dvrBytes: lowLatency.disk.used,
              dvrMaxBytes: lowLatency.disk.maxBytes,
            },
          }
        : null,
      RTSP: ports.rtsp
        ? { port: ports.rtsp, ingest: `rtsp://${host}:${ports.rtsp}/live/<name>`, transport: 'TCP' }
        : null,
    },
    mediaPorts: ports,
    streams: manager.activePushes().map((session) => ({
      id: session.assigned.id,
      name: session.assigned.name,
      protocol: session.protocol,
      since: session.startedAt.toISOString(),
      bytesIn: session.handle.bytesIn(),
      // How its WebRTC viewers get the video: H.264 as it is, or VP8 re-encoded and why (one entry per feed).
      webrtcFeeds: whep?.describe(session.assigned.id) ?? [],
      pipelines: Object.fromEntries(
        node.pipelines.running(session.assigned.id).map(([kind, pipeline]) => [kind, pipeline.describe?.() ?? {}]),
      ),
    })),
    sessions: manager.viewers.count,
    previews: manager.viewers.previewCounters(),
    // WHIP and WHEP sessions (answered offers), and those of them not connected yet (bounded: pending-offers.ts).
    webrtc: Object.fromEntries(
      (['whip', 'whep'] as const).map((kind) => {
        const endpoint = kind === 'whip' ? whip : whep;
        return [kind, endpoint && { sessions: endpoint.size, pendingOffers: endpoint.pending.count }];
      }),
    ),
    edgePulls: node.edges.describe(),
    clips: node.clips.describe(),
    emergencyCleanup: manager.admission.emergency,
    problems: node.problems,
  };
}
