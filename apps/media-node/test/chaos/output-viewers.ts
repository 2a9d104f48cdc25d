import type { StreamOutput } from '@streamcloud/contract';
import type { ControlPlane } from '../harness.js';
import { countingRelay } from '../harness.js';
import { type HlsViewer, startHlsViewer } from './hls-viewer.js';
import { type RtmpViewer, startRtmpViewer } from './rtmp-viewer.js';

/** An HLS and an RTMP output of a stream served by one node, each watched by a viewer. */
export interface OutputViewers {
  hls: HlsViewer;
  /** Plays the RTMP output through a counting relay in front of the node's RTMP port (the billing check's count). */
  rtmp: RtmpViewer;
  /** The HLS viewer's bodies answered 200 and the RTMP viewer's bytes both ways of its plays that got media. */
  bytes(): number;
  /** Stops both viewers (their counts final). */
  stop(): Promise<void>;
}

/**
 * Makes an HLS output (of `hlsLatency`) and an RTMP output of `streamId`, which the control plane must place on
 * `nodeId`, and starts a viewer of each; `label` names the node in what the viewers report ("the edge's HLS viewer").
 */
export async function startOutputViewers(
  plane: ControlPlane,
  streamId: string,
  { hlsLatency, nodeId, label }: { hlsLatency: 'Standard' | 'Low'; nodeId: string; label: string },
): Promise<OutputViewers> {
  const made = async (body: Record<string, unknown>) => {
    const output = await plane.api<StreamOutput>('POST', '/outputs', { streamId, ...body });
    if (output.status !== 201 || output.body.node?.id !== nodeId)
      throw new Error(`${label} ${body.format} output: ${output.status} on ${output.body.node?.id}`);
    return `${output.body.connection?.uri}?token=${encodeURIComponent(output.body.viewer.accessToken ?? '')}`;
  };
  const hlsUrl = await made({ format: 'HLS', hlsLatency });
  const rtmpUrl = new URL(await made({ format: 'RTMP' }));
  // The node, restarted, takes its port again: the relay stays in front of it.
  const rtmpCounter = await countingRelay(Number(rtmpUrl.port || 1935));
  rtmpUrl.port = String(rtmpCounter.port);
  const rtmp = startRtmpViewer(rtmpUrl.toString(), rtmpCounter);
  const hls = startHlsViewer(hlsUrl, `the ${label}'s HLS viewer`);
  return {
    hls,
    rtmp,
    bytes: () => hls.bytes + rtmp.billable,
    async stop() {
      await Promise.all([hls.stop(), rtmp.close()]);
      await rtmpCounter.close();
    },
  };
}
