import { describe, expect, it } from 'vitest';
import {
  ffmpeg,
  nodeMetadata,
  processRunning,
  WHEP_OFFER_PAYLOAD_TYPES,
  type WhepViewer,
  waitFor,
  whepViewer,
} from './harness.js';
import { streamsOf, uriOf, useMediaNode } from './streams.js';

/**
 * WHEP without re-encoding (docs/decisions.md, "WebRTC without re-encoding"): an H.264 push a browser can
 * take goes to a viewer offering H.264 as it is, with no video encoder; a push with B-frames is re-encoded to
 * VP8 for the same viewer.
 */
const world = useMediaNode('media-h264');
const { createStream, createOutput, messages, status } = streamsOf(world);

const PT = WHEP_OFFER_PAYLOAD_TYPES;

/** A 320x180 test pattern with a tone, 4:2:0 H.264 (libx264 veryfast: High profile) with B-frames or without. */
const pushH264 = (url: string, bFrames: boolean) =>
  ffmpeg([
    '-re',
    ...['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=15', '-f', 'lavfi', '-i', 'sine=frequency=440'],
    ...['-t', '40', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '15'],
    ...(bFrames ? [] : ['-bf', '0']),
    ...['-c:a', 'aac', '-f', 'flv', url],
  ]);

/** The video formats (payload type and encoding: those of a 90 kHz clock) an SDP answer names. */
const videoFormats = (sdp: string) =>
  [...sdp.matchAll(/a=rtpmap:(\d+) ([\w-]+)\/90000/g)].map((match) => `${match[1]} ${match[2]}`);

/** The stream's WebRTC feeds as /metadata shows them. */
const feedsOf = async (streamId: string) =>
  (
    await nodeMetadata<{ streams: { id: string; webrtcFeeds: { video: string; reencoded: string | null }[] }[] }>(
      world.node,
    )
  ).streams.find((stream) => stream.id === streamId)?.webrtcFeeds ?? [];

/** Whether a video encoder runs for the stream (a WHEP feed's VP8, or any H.264 encoding of it on the node). */
const encoderRunning = (streamId: string) =>
  processRunning((command) => command.includes(streamId) && /libvpx|libx264/.test(command));

describe('WHEP without re-encoding', () => {
  it('sends an H.264 push without B-frames as it is: H.264 in the answer, no video encoder', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const output = await createOutput(stream.id, 'WebRTC');
    const push = pushH264(uriOf(stream), false);
    let viewer: WhepViewer | undefined;
    try {
      await status(stream.id, 'Ingestion');
      viewer = await whepViewer(output.connection?.signallingUri ?? '', 'h264+vp8');
      const { answer, got } = viewer;
      // The High format of the offer (the push is High profile), and only it.
      expect(videoFormats(answer)).toEqual([`${PT.high} H264`]);
      expect(answer).toMatch(new RegExp(`a=fmtp:${PT.high} .*packetization-mode=1`));
      await waitFor(
        async () => got,
        (got) => got.video >= 30 && got.audio >= 10,
        15_000,
        'H.264 and Opus packets',
      );
      expect(got.codec).toBe('video/h264');
      // A viewer starts at a keyframe, its SPS and PPS first (aggregated in a STAP-A, NAL unit type 24).
      const [first] = got.firstVideoPayloads;
      expect([(first?.[0] ?? 0) & 0x1f, (first?.[3] ?? 0) & 0x1f]).toEqual([24, 7]);
      // The feed copies the video: no encoder of it runs (its ffmpeg only makes Opus of the audio).
      expect(processRunning((command) => command.includes(stream.id) && command.includes('-c:v copy'))).toBe(true);
      expect(encoderRunning(stream.id)).toBe(false);
      expect(await feedsOf(stream.id)).toEqual([{ video: 'H.264 as it is', reencoded: null, viewers: 1 }]);
      expect(await messages(stream.id)).toContain('WebRTC viewers get the H.264 video as it is (no re-encoding)');
    } finally {
      push.stop();
      await push.exited;
      await viewer?.close();
    }
  });

  it('re-encodes a push with B-frames to VP8 for the same viewer, and says why', async () => {
    const stream = await createStream({ format: 'RTMP' });
    const output = await createOutput(stream.id, 'WebRTC');
    const push = pushH264(uriOf(stream), true);
    let viewer: WhepViewer | undefined;
    try {
      await status(stream.id, 'Ingestion');
      viewer = await whepViewer(output.connection?.signallingUri ?? '', 'h264+vp8');
      const { answer, got } = viewer;
      expect(videoFormats(answer)).toEqual([`${PT.vp8} VP8`]);
      await waitFor(
        async () => got,
        (got) => got.video >= 30 && got.audio >= 10,
        15_000,
        'VP8 and Opus packets',
      );
      expect(got.codec).toBe('video/vp8');
      expect(encoderRunning(stream.id)).toBe(true);
      const reason = "the source's H.264 has B-frames, which browsers do not take";
      expect(await feedsOf(stream.id)).toEqual([{ video: 'VP8 re-encoded', reencoded: reason, viewers: 1 }]);
      expect(await messages(stream.id)).toContain(`WebRTC viewers get the video re-encoded to VP8: ${reason}`);
    } finally {
      push.stop();
      await push.exited;
      await viewer?.close();
    }
  });
});
