import type { StreamOutput } from '@streamcloud/contract';
import type { ControlPlane } from '../harness.js';
import { countingRelay } from '../harness.js';
import { type HlsViewer, startHlsViewer } from './hls-viewer.js';
import { type RtmpViewer, startRtmpViewer } from './rtmp-viewer.js';

/**
 * A stream's Standard HLS and RTMP outputs on one node, each with its viewer: the HLS one polls the playlist and
 * fetches each new segment, the RTMP one plays again a second after each play ends, through a counting relay in
 * front of the node's RTMP port (the node, restarted, takes its port again).
 */
export interface ViewerPair {
  hls: HlsViewer;
  rtmp: RtmpViewer;
  /**
   * Bytes its viewers exchanged with the node (the billing check's reference): the HLS bodies answered 200 (a redirect
   * or a refusal is not billed) and the RTMP bytes both ways of the plays that got media (`RtmpViewer.billable`).
   */
  bytes(): number;
  /** Stops both viewers (their counts final). */
  stop(): Promise<void>;
}

/**
 * Makes the outputs, checks the control plane placed both on `node` (`where` names it in a failure: "the edge"), and
 * starts their viewers.
 */
export async function startViewerPair(
  plane: ControlPlane,
  streamId: string,
  node: { id: string; rtmpPort: number },
  where: string,
): Promise<ViewerPair> {
  const placed = async (body: Record<string, unknown>) => {
    const output = await plane.api<StreamOutput>('POST', '/outputs', { streamId, ...body });
    if (output.status !== 201 || output.body.node?.id !== node.id)
      throw new Error(`${body.format} output on ${where}: ${output.status} on ${output.body.node?.id ?? 'no node'}`);
    return `${output.body.connection?.uri}?token=${encodeURIComponent(output.body.viewer.accessToken ?? '')}`;
  };
  const hlsUrl = await placed({ format: 'HLS', hlsLatency: 'Standard' });
  const rtmpUrl = new URL(await placed({ format: 'RTMP' }));
  const counter = await countingRelay(node.rtmpPort);
  rtmpUrl.port = String(counter.port);
  const rtmp = startRtmpViewer(rtmpUrl.toString(), counter);
  const hls = startHlsViewer(hlsUrl, `${where}'s HLS viewer`);
  return {
    hls,
    rtmp,
    bytes: () => hls.bytes + rtmp.billable,
    async stop() {
      await Promise.all([hls.stop(), rtmp.close()]);
      await counter.close();
    },
  };
}
