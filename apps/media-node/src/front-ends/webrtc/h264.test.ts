import { describe, expect, it } from 'vitest';
import type { VideoCoding } from '../../probe.js';
import { offeredH264, startsH264Keyframe, videoPathFor, withVideoFormatOnly } from './h264.js';

/** The video formats Debian's Chromium 156 offers (trimmed: no RTX but one, no FEC), then its audio. */
const CHROMIUM_OFFER = [
  'v=0',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97 102 104 108 114 116 39 41 43 45',
  'a=mid:0',
  'a=recvonly',
  'a=rtpmap:96 VP8/90000',
  'a=rtcp-fb:96 nack pli',
  'a=rtpmap:97 rtx/90000',
  'a=fmtp:97 apt=96',
  ...[
    [102, 1, '42001f'],
    [104, 0, '42001f'],
    [108, 1, '42e01f'],
    [114, 0, '42e01f'],
    [116, 1, '4d001f'],
    [39, 0, '4d001f'],
    [41, 1, 'f4001f'],
    [43, 0, 'f4001f'],
  ].flatMap(([pt, mode, id]) => [
    `a=rtpmap:${pt} H264/90000`,
    `a=rtcp-fb:${pt} nack pli`,
    `a=fmtp:${pt} level-asymmetry-allowed=1;packetization-mode=${mode};profile-level-id=${id}`,
  ]),
  'a=rtpmap:45 AV1/90000',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'a=mid:1',
  'a=rtpmap:111 opus/48000/2',
  'a=fmtp:111 minptime=10;useinbandfec=1',
].join('\r\n');

/** Firefox's H.264: Constrained Baseline only (OpenH264), both packetization modes. */
const FIREFOX_OFFER = [
  'v=0',
  'm=video 9 UDP/TLS/RTP/SAVPF 120 126 97',
  'a=rtpmap:120 VP8/90000',
  'a=rtpmap:126 H264/90000',
  'a=fmtp:126 profile-level-id=42e01f;level-asymmetry-allowed=1;packetization-mode=1',
  'a=rtpmap:97 H264/90000',
  'a=fmtp:97 profile-level-id=42e01f;level-asymmetry-allowed=1',
].join('\r\n');

const h264 = (profile: string, more: Partial<VideoCoding> = {}): VideoCoding => ({
  codec: 'h264',
  profile,
  level: 31,
  bFrames: false,
  pixFmt: 'yuv420p',
  ...more,
});

describe('videoPathFor', () => {
  it("answers with the offer's format whose decoder takes the source's profile, in packetization mode 1", () => {
    expect(videoPathFor(h264('Constrained Baseline'), CHROMIUM_OFFER)).toEqual({ codec: 'H264', payloadType: 108 });
    expect(videoPathFor(h264('Baseline'), CHROMIUM_OFFER)).toEqual({ codec: 'H264', payloadType: 102 });
    expect(videoPathFor(h264('Main'), CHROMIUM_OFFER)).toEqual({ codec: 'H264', payloadType: 116 });
    // No plain High in Chromium's offer: its High 4:4:4 Predictive decoder takes High, and 4:4:4 itself.
    expect(videoPathFor(h264('High'), CHROMIUM_OFFER)).toEqual({ codec: 'H264', payloadType: 41 });
    expect(videoPathFor(h264('High 4:4:4 Predictive', { pixFmt: 'yuv444p' }), CHROMIUM_OFFER)).toEqual({
      codec: 'H264',
      payloadType: 41,
    });
    expect(videoPathFor(h264('Constrained Baseline'), FIREFOX_OFFER)).toEqual({ codec: 'H264', payloadType: 126 });
  });

  it('re-encodes to VP8 what browsers cannot take, or what the offer cannot, and says why', () => {
    const reasonOf = (coding: VideoCoding | null | undefined, offer = CHROMIUM_OFFER) => {
      const path = videoPathFor(coding, offer);
      return path.codec === 'VP8' ? path.reason : null;
    };
    expect(reasonOf(h264('High', { bFrames: true }))).toBe(
      "the source's H.264 has B-frames, which browsers do not take",
    );
    expect(reasonOf(h264('High 10', { pixFmt: 'yuv420p10le' }))).toBe(
      "browsers do not decode the source's H.264 profile High 10",
    );
    expect(reasonOf(h264('High', { pixFmt: 'yuv422p' }))).toBe("browsers do not decode the source's H.264 in yuv422p");
    expect(reasonOf({ ...h264('Main'), codec: 'hevc' })).toBe("the source's video is hevc, not H.264");
    expect(reasonOf(undefined)).toBe("the source's video was not probed yet");
    expect(reasonOf(h264('High'), FIREFOX_OFFER)).toBe(
      "the viewer's offer takes H.264 Constrained Baseline, which does not play the source's High",
    );
    const vp8Only = FIREFOX_OFFER.split('\r\n')
      .filter((line) => !line.includes('H264') && !/fmtp:(126|97)/.test(line))
      .join('\r\n');
    expect(reasonOf(h264('Main'), vp8Only)).toBe("the viewer's offer has no H.264 (packetization mode 1)");
  });

  it('reads the profiles of the offer (no profile-level-id: Baseline; no packetization-mode: 0)', () => {
    expect(offeredH264('m=video 9 RTP/SAVPF 100\r\na=rtpmap:100 H264/90000')).toEqual([
      { payloadType: 100, profile: 'Baseline', packetizationMode: 0 },
    ]);
  });
});

describe('withVideoFormatOnly', () => {
  it('leaves one video format in the offer (werift answers with every format it knows), the audio as it is', () => {
    const offer = withVideoFormatOnly(CHROMIUM_OFFER, 116);
    const lines = offer.split('\r\n');
    expect(lines).toContain('m=video 9 UDP/TLS/RTP/SAVPF 116');
    expect(lines.filter((line) => /^a=(rtpmap|fmtp|rtcp-fb):/.test(line) && !line.includes('111'))).toEqual([
      'a=rtpmap:116 H264/90000',
      'a=rtcp-fb:116 nack pli',
      'a=fmtp:116 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=4d001f',
    ]);
    expect(offer.slice(offer.indexOf('m=audio'))).toBe(CHROMIUM_OFFER.slice(CHROMIUM_OFFER.indexOf('m=audio')));
    expect(offeredH264(offer)).toEqual([{ payloadType: 116, profile: 'Main', packetizationMode: 1 }]);
  });
});

describe('startsH264Keyframe', () => {
  /** An RTP packet (12-byte header, `csrcs` CSRCs) with this payload. */
  const rtp = (payload: number[], csrcs = 0) =>
    Buffer.concat([
      Buffer.from([0x80 | csrcs, 102, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]),
      Buffer.alloc(csrcs * 4),
      Buffer.from(payload),
    ]);

  it('is true for a packet with the SPS: alone, or aggregated in a STAP-A (as ffmpeg sends it)', () => {
    expect(startsH264Keyframe(rtp([0x67, 0x64, 0x00, 0x0d]))).toBe(true);
    // STAP-A: SEI (2 bytes), then SPS (2 bytes).
    expect(startsH264Keyframe(rtp([0x78, 0, 2, 0x06, 0x05, 0, 2, 0x67, 0x64]))).toBe(true);
    expect(startsH264Keyframe(rtp([0x67, 0x64], 2))).toBe(true);
  });

  it('is false for slices, fragments of an IDR without its SPS, a STAP-A without one, and short packets', () => {
    expect(startsH264Keyframe(rtp([0x41, 0x9a]))).toBe(false);
    expect(startsH264Keyframe(rtp([0x7c, 0x85, 0x88]))).toBe(false);
    expect(startsH264Keyframe(rtp([0x78, 0, 2, 0x06, 0x05, 0, 1, 0x68]))).toBe(false);
    // A STAP-A whose size runs past the packet ends the walk.
    expect(startsH264Keyframe(rtp([0x78, 0x7f, 0xff, 0x67]))).toBe(false);
    expect(startsH264Keyframe(Buffer.alloc(12))).toBe(false);
  });
});
