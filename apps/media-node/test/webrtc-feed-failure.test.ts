import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEBRTC_PLAYBACK_FAILED } from '@streamcloud/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { RTCPeerConnection } from 'werift';
import { pushTestPattern, waitFor } from './harness.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * A WebRTC feed that cannot start says why in the stream's messages: this node's ffmpeg has no VP8 encoder
 * (Debian's ffmpeg behind a script that refuses libvpx as a build without it would), everything else works.
 */
const tools = mkdtempSync(join(tmpdir(), 'feed-failure-'));
const ffmpeg = join(tools, 'ffmpeg');
writeFileSync(
  ffmpeg,
  `#!/bin/sh\ncase "$*" in *libvpx*) echo "Unknown encoder 'libvpx'" >&2; exit 1;; esac\nexec /usr/bin/ffmpeg "$@"\n`,
);
chmodSync(ffmpeg, 0o755);
const world = useMediaNode('feed-failure', { FFMPEG_PATH: ffmpeg, WEBRTC_WARM_FEEDS: '0' });
const { createStream, createOutput, messages, outputs, status } = streamsOf(world);
afterAll(() => rmSync(tools, { recursive: true, force: true }));

describe('a WebRTC feed that cannot start', () => {
  it("ends its viewers and says why in the stream's messages", async () => {
    const stream = await createStream({ format: 'RTMP' });
    const output = await createOutput(stream.id, 'WebRTC');
    const push = pushTestPattern(uriOf(stream), 'flv', 120);
    const viewers: RTCPeerConnection[] = [];
    try {
      await status(stream.id, 'Ingestion', 15_000);
      const watch = async () => {
        const pc = new RTCPeerConnection({ iceAdditionalHostAddresses: ['127.0.0.1'], iceUseIpv6: false });
        viewers.push(pc);
        pc.addTransceiver('video', { direction: 'recvonly' });
        pc.addTransceiver('audio', { direction: 'recvonly' });
        await pc.setLocalDescription(await pc.createOffer());
        const answer = await fetch(output.connection?.signallingUri ?? '', {
          method: 'POST',
          headers: { 'content-type': 'application/sdp' },
          body: pc.localDescription?.sdp,
        });
        expect(answer.status).toBe(201);
        await pc.setRemoteDescription({ type: 'answer', sdp: await answer.text() });
        return pc;
      };
      await watch();
      const failed = await waitFor(
        () => messages(stream.id),
        (texts) => texts.some((text) => text.startsWith(WEBRTC_PLAYBACK_FAILED)),
        30_000,
        'the feed failure in the stream messages',
      );
      expect(failed).toContain(`${WEBRTC_PLAYBACK_FAILED}: encoding for WebRTC failed: Unknown encoder 'libvpx'`);
      expect(failed.filter((text) => text.startsWith(WEBRTC_PLAYBACK_FAILED))).toHaveLength(1);
      // The viewer's session is over on the node; the push itself is fine.
      await waitFor(
        () => outputs(stream.id),
        (list) => list[0]?.sessions.length === 0,
        10_000,
        'no WebRTC session left',
      );
      // The push itself is fine.
      expect((await status(stream.id, 'Ingestion')).status).toBe('Ingestion');
    } finally {
      push.stop();
      for (const pc of viewers) await pc.close();
    }
  });
});
